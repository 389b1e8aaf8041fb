import GirdersSupport

/// Registrations of services isolated to the main actor: registered and resolved on the main actor, so
/// non-`Sendable` UI services need no unsafe casts.
///
/// ```swift
/// @MainActor final class Router { ... }
/// container.registerOnMainActor(Router.self, lifetime: .singleton) { _ in Router() }
/// let router: Router = try container.resolveOnMainActor()
/// ```
@MainActor
final class MainActorRegistry: Sendable {
    /// The keys registered, readable off the main actor (``Container/verify()`` names a main-actor service that a
    /// factory elsewhere asks for).
    nonisolated let registeredKeys = LockedState(Set<RegistrationKey>())
    private var factories: [RegistrationKey: (Lifetime, (Container) throws -> Any)] = [:]
    private var singletons: [RegistrationKey: Any] = [:]

    nonisolated init() {}

    func register<Service>(
        _ type: Service.Type, name: String?, lifetime: Lifetime,
        factory: @escaping @MainActor (Container) throws -> Service
    ) {
        let key = RegistrationKey(of: Service.self, name: name)
        factories[key] = (lifetime, factory)
        singletons[key] = nil
        registeredKeys.withLock { _ = $0.insert(key) }
    }

    func resolve<Service>(_ type: Service.Type, name: String?, in container: Container) throws -> Service? {
        let key = RegistrationKey(of: Service.self, name: name)
        guard let (lifetime, factory) = factories[key] else { return nil }
        if lifetime == .singleton, let existing = singletons[key] as? Service { return existing }
        guard let instance = try factory(container) as? Service else { return nil }
        if lifetime == .singleton { singletons[key] = instance }
        return instance
    }
}

extension Container {
    /// Registers a factory that runs on the main actor. `.singleton` keeps one instance; other lifetimes build
    /// a new one each time.
    @MainActor
    public func registerOnMainActor<Service>(
        _ type: Service.Type = Service.self, name: String? = nil, lifetime: Lifetime = .perRequest,
        factory: @escaping @MainActor (Container) throws -> Service
    ) {
        mainActorRegistry.register(type, name: name, lifetime: lifetime, factory: factory)
    }

    /// Resolves a main-actor registration of this container or a parent.
    /// - Throws: ``ContainerError/notRegistered(type:name:registered:)`` when neither has one.
    @MainActor
    public func resolveOnMainActor<Service>(_ type: Service.Type = Service.self, name: String? = nil) throws -> Service
    {
        if let instance = try mainActorRegistry.resolve(type, name: name, in: self) { return instance }
        if let parent { return try parent.resolveOnMainActor(type, name: name) }
        throw ContainerError.notRegistered(
            type: String(reflecting: type), name: name, registered: registeredDescriptions())
    }
}
