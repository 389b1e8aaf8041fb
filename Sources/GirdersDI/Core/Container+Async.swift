/// Factories that `await`: a service that reads a file, the keychain or the network before it exists.
///
/// ```swift
/// container.registerAsync(Settings.self, lifetime: .singleton) { _ in try await Settings.load() }
/// let settings: Settings = try await container.resolveAsync()
/// ```
extension Container {
    /// Registers (or replaces) an `async throws` factory for `Service` and `name`.
    ///
    /// `.singleton` builds one instance however many tasks ask at once (the others wait; cancelling a waiter
    /// does not cancel the build; a failed build is not kept, the next resolve builds again); every other
    /// lifetime builds a new instance per resolve. Resolve it with ``resolveAsync(_:name:)``; a synchronous resolve
    /// is ``ContainerError/asyncFactory(type:)``. The factory may resolve synchronous and `async` services;
    /// cycles and depth are checked across `await`.
    public func registerAsync<Service: Sendable>(
        _ type: Service.Type = Service.self, name: String? = nil, lifetime: Lifetime = .perRequest,
        factory: @escaping @Sendable (Container) async throws -> Service
    ) {
        state.withLock { registry in
            registry.generation += 1
            let registration = AsyncRegistration(
                name: name, lifetime: lifetime, generation: registry.generation, factory: factory)
            registry.registrations[registration.key] = registration
            registry.registrationsChanged()
        }
        RegistryGeneration.shared.advance()
    }

    /// Resolves `Service` and `name`, whether its factory is `async` (see ``registerAsync(_:name:lifetime:factory:)``)
    /// or not; the same lookup as `resolveOrThrow(_:name:)`: overrides, this container, then its parents.
    /// - Throws: what `resolveOrThrow(_:name:)` throws; a failed `async` factory as
    ///   ``ContainerError/factoryFailed(chain:underlying:)``; `CancellationError` when the task is cancelled while it
    ///   waits for a singleton another task builds.
    public func resolveAsync<Service: Sendable>(
        _ type: Service.Type = Service.self, name: String? = nil
    )
        async throws -> Service
    {
        if RegistryGeneration.shared.current & 1 != 0, let replacement = OverrideScope.replacement(for: self) {
            return try await replacement.resolveAsync(type, name: name)
        }
        let key = RegistrationKey(of: Service.self, name: name)
        var next: Container? = self
        while let container = next {
            let found = container.state.withLock { $0.registrations[key] }
            if let registration = found as? AsyncRegistration<Service> {
                return try await registration.resolve(in: container)
            }
            if found != nil { return try container.resolveOrThrow(type, name: name) }
            next = container.parent
        }
        return try resolveOrThrow(type, name: name)
    }

    /// The description of an `async` registration of `Service` and `name` here or in a parent, if there is one
    /// (for the error of a synchronous resolve that reaches it).
    func asyncRegistration<Service>(_ type: Service.Type, name: String?) -> String? {
        let key = RegistrationKey(of: Service.self, name: name)
        var next: Container? = self
        while let container = next {
            if let found = container.state.withLock({ $0.registrations[key] }) {
                return found.isAsync ? found.description : nil
            }
            next = container.parent
        }
        return nil
    }

    /// How many resolves wait for the build of the `async` singleton `Service` registered here (for the tests).
    func asyncWaiterCount<Service: Sendable>(_ type: Service.Type, name: String? = nil) -> Int {
        let found = state.withLock { $0.registrations[RegistrationKey(of: Service.self, name: name)] }
        return (found as? AsyncRegistration<Service>)?.cell?.waiterCount ?? 0
    }
}
