import Foundation

/// Building instances: cycle detection, error chains, graphs, and publishing singletons.
extension Container {
    /// Runs the factory (and the `completed` hook) with cycle detection; the graph of the top-level resolve ends
    /// when it returns.
    @inlinable
    func build<Service>(_ registration: TypedRegistration<Service>, thread: ThreadResolutionState) throws -> Service {
        if !thread.local.pointee.chain.isEmpty,
            thread.local.pointee.chain.contains(where: { $0.takeUnretainedValue().key == registration.key })
        {
            let chain =
                thread.local.pointee.chain.map { $0.takeUnretainedValue().description } + [registration.description]
            throw ContainerError.cycle(chain: Array(chain.drop(while: { $0 != registration.description })))
        }
        if thread.local.pointee.chain.count >= Self.maximumDepth {
            if thread.local.pointee.verification != nil { noteTooDeep(registration, thread: thread) }
            throw ContainerError.tooDeep(
                start: thread.local.pointee.chain.first?.takeUnretainedValue().description ?? registration.description,
                limit: Self.maximumDepth)
        }
        if thread.local.pointee.verification != nil { checkLifetime(of: registration, thread: thread) }
        thread.local.pointee.chain.append(.passUnretained(registration))
        defer {
            thread.local.pointee.chain.removeLast()
            if thread.local.pointee.chain.isEmpty {
                if !thread.local.pointee.graph.isEmpty { thread.local.pointee.graph.removeAll(keepingCapacity: true) }
                if !thread.local.pointee.pinned.isEmpty { thread.local.pointee.pinned.removeAll() }
            }
        }
        do {
            let instance = try registration.factory(self)
            if registration.lifetime == .graph { thread.local.pointee.graph[registration.key] = instance }
            try registration.completed?(self, instance)
            return instance
        } catch let error as ContainerError {
            throw error
        } catch {
            throw ContainerError.factoryFailed(
                chain: thread.local.pointee.chain.map { $0.takeUnretainedValue().description }, underlying: error)
        }
    }

    /// In a dry run: the chain that reached the depth limit, for the report.
    @usableFromInline
    func noteTooDeep(_ registration: Registration, thread: ThreadResolutionState) {
        thread.local.pointee.verification?.pendingDeepChain =
            thread.local.pointee.chain.map { $0.takeUnretainedValue().description } + [registration.description]
    }

    /// In a dry run: a per-request or per-graph service built for a singleton (or `.weak` service) lives as long
    /// as that singleton; logged with the chain from the nearest such holder.
    @usableFromInline
    func checkLifetime(of registration: Registration, thread: ThreadResolutionState) {
        guard registration.lifetime == .perRequest || registration.lifetime == .graph else { return }
        // The direct dependency only: what it holds in turn is its own business, reported once.
        guard let holder = thread.local.pointee.chain.last?.takeUnretainedValue(),
            holder.lifetime == .singleton || holder.lifetime == .weak
        else { return }
        let path = [holder.description, registration.description]
        let lifetime = registration.lifetime == .graph ? "per-graph" : "per-request"
        thread.local.pointee.verification?.record(
            ContainerProblem(
                kind: .lifetime, chain: path,
                message:
                    "\(path[0]) is a \(holder.lifetime == .weak ? "weak" : "singleton") service but holds \(registration.description), a \(lifetime) one, which then lives as long"
            ), identity: path.joined(separator: "|"))
    }

    /// Builds a singleton or weak instance exactly once, even when many threads ask at the same time. Only this
    /// registration's gate is held while the factory runs (see ``BuildCoordinator``).
    @usableFromInline
    func buildShared<Service>(
        _ registration: TypedRegistration<Service>, thread: ThreadResolutionState
    ) throws
        -> Service
    {
        if thread.local.pointee.verification != nil {  // a dry run keeps nothing
            let instance = try build(registration, thread: thread)
            if registration.lifetime == .weak, !(type(of: instance as Any) is AnyClass) {
                throw ContainerError.weakRequiresClass(type: registration.description)
            }
            return instance
        }
        let coordinator = BuildCoordinator.shared
        try coordinator.acquire(registration.gate, thread: ObjectIdentifier(thread))
        defer { coordinator.release(registration.gate) }
        let current = state.withLock { $0.registrations[registration.key] as? TypedRegistration<Service> }
        guard let current, current.generation == registration.generation else {
            return try build(registration, thread: thread)  // replaced meanwhile: serve this caller, keep nothing
        }
        if registration.lifetime == .weak {
            if let object = current.weakStorage?.current, let instance = object as? Service { return instance }
            let instance = try build(current, thread: thread)
            guard type(of: instance as Any) is AnyClass else {
                throw ContainerError.weakRequiresClass(type: current.description)
            }
            current.weakStorage?.store(instance as AnyObject)
            return instance
        }
        if let instance = current.instance { return instance }
        let instance = try build(current, thread: thread)
        let published: Bool = state.withLock { registry in
            guard let latest = registry.registrations[registration.key], latest.generation == registration.generation
            else { return false }
            registry.registrations[registration.key] = current.holding(instance)
            registry.registrationsChanged()
            return true
        }
        if published { RegistryGeneration.shared.advance() }
        return instance
    }
}
