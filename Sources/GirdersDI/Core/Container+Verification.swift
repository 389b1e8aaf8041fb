/// Checking every registration before the app runs into a broken one.
extension Container {
    /// Builds every registration visible here (this container's, then each parent's that this one does not
    /// shadow; inside ``withOverrides(_:operation:)-(_,()->Result)`` the overriding child's) in a dry run, and
    /// reports every mistake at once: missing registrations with the chain that needs them (and main-actor services
    /// a factory off the main actor asks for), cycles with their path, chains deeper than ``maximumDepth``,
    /// singletons that hold per-request services, synchronous resolves of `async` registrations, and factories
    /// that fail.
    ///
    /// The dry run calls the factories (and `completed` hooks), as a resolve would, but keeps nothing: singletons
    /// are built anew even when built already, and no instance is published, so the container is as before.
    /// Factories of `async` registrations and of `registerOnMainActor` are not run. Linear in the size of the
    /// graphs: a 1,000-registration container verifies in milliseconds, fast enough for a unit test.
    public func verify() -> ContainerVerification {
        if RegistryGeneration.shared.current & 1 != 0, let replacement = OverrideScope.replacement(for: self) {
            return replacement.verify()
        }
        var shadowed = Set<RegistrationKey>()
        var work: [(Container, Registration)] = []
        var next: Container? = self
        while let container = next {
            let registrations = container.state.withLock { Array($0.registrations.values) }
                .sorted { $0.description < $1.description }
            for registration in registrations where shadowed.insert(registration.key).inserted {
                work.append((container, registration))
            }
            next = container.parent
        }
        let thread = ThreadResolutionState.current
        let local = thread.local
        let outer = local.pointee.verification
        local.pointee.verification = VerificationLog()
        local.pointee.slots = nil  // the fast path would return built singletons without building them
        defer {
            local.pointee.verification = outer
            // The fast path again, over the snapshot the thread holds (epoch, container and mask are its own).
            local.pointee.slots = outer == nil ? thread.cache?.snapshot.slots : nil
        }
        var checked = 0
        for (container, registration) in work where !registration.isAsync {
            checked += 1
            do {
                try registration.dryRun(in: container, thread: thread)
            } catch {
                local.pointee.verification?.record(error, from: registration.description)
            }
        }
        return ContainerVerification(problems: local.pointee.verification?.problems ?? [], checked: checked)
    }

    /// ``verify()`` for a test: throws when it finds anything.
    /// - Throws: ``ContainerVerificationFailure`` holding the report.
    public func verifyOrThrow() throws(ContainerVerificationFailure) {
        let verification = verify()
        if !verification.isValid { throw ContainerVerificationFailure(verification: verification) }
    }
}

extension VerificationLog {
    /// Records the error a registration's dry run ended with.
    mutating func record(_ error: any Error, from start: String) {
        guard let error = error as? ContainerError else {
            record(
                ContainerProblem(
                    kind: .factoryFailed, chain: [start], message: "The factory of \(start) failed: \(error)"),
                identity: start)
            return
        }
        switch error {
        case .notRegistered(let type, let name, _):
            let missing = name.map { "\(type) named \"\($0)\"" } ?? type
            let (kind, chain) = pendingMissing[missing] ?? (.missing, [start, missing])
            let needed = chain.dropLast().joined(separator: " -> ")
            let message =
                kind == .mainActorOffMain
                ? "\(missing) is registered on the main actor, but \(needed) resolves it off the main actor"
                : "No registration for \(missing) (needed by \(needed))"
            // One mistake per missing service and the registration that asks for it, whatever led there.
            let requester = chain.dropLast().last ?? start
            record(ContainerProblem(kind: kind, chain: chain, message: message), identity: missing + "|" + requester)
        case .cycle(let chain):
            recordCycle(chain)
        case .tooDeep:
            recordTooDeep(pendingDeepChain ?? [start], message: error.description)
        case .factoryFailed(let chain, _):
            record(
                ContainerProblem(kind: .factoryFailed, chain: chain, message: error.description),
                identity: chain.last ?? start)
        case .weakRequiresClass(let type):
            record(
                ContainerProblem(kind: .weakRequiresClass, chain: [type], message: error.description), identity: type)
        case .asyncFactory(let type):
            let requester = pendingAsync[type] ?? start
            record(
                ContainerProblem(
                    kind: .asyncFromSync, chain: [requester, type],
                    message: "\(requester) resolves \(type) synchronously, but its factory is async"),
                identity: type + "|" + requester)
        }
    }
}
