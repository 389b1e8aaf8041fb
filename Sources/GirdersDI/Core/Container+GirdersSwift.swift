/// GirdersSwift's call sites, on ``Container/shared`` (static) and on any container (instance).
///
/// ```swift
/// Container.addSingleton { () -> SomeServiceProtocol in SomeService() }
/// Container.addPerRequest { () -> SomeServiceProtocol in SomeService() }
/// let s: SomeServiceProtocol = Container.resolve()
/// let t: SomeServiceProtocol = try Container.resolveOrThrow()
/// ```
extension Container {
    /// Registers a singleton in the shared container.
    public static func addSingleton<Service>(_ factory: @escaping @Sendable () -> Service) {
        shared.addSingleton(factory)
    }

    /// Registers a per-request factory in the shared container.
    public static func addPerRequest<Service>(_ factory: @escaping @Sendable () -> Service) {
        shared.addPerRequest(factory)
    }

    /// Resolves from the shared container, stopping the program with a message naming the type when it cannot.
    /// Inlined, so it is as fast as `resolveOrThrow(_:name:)`.
    @inlinable @inline(__always)
    public static func resolve<Service>(_ type: Service.Type = Service.self, name: String? = nil) -> Service {
        shared.resolve(Service.self, name: name)
    }

    /// Resolves from the shared container.
    /// - Throws: ``ContainerError`` naming the type and listing what is registered.
    @inlinable @inline(__always)
    public static func resolveOrThrow<Service>(
        _ type: Service.Type = Service.self, name: String? = nil
    ) throws
        -> Service
    {
        try shared.resolveOrThrow(Service.self, name: name)
    }

    /// Registers a singleton in this container.
    public func addSingleton<Service>(_ factory: @escaping @Sendable () -> Service) {
        register(Service.self, lifetime: .singleton) { _ in factory() }
    }

    /// Registers a per-request factory in this container.
    public func addPerRequest<Service>(_ factory: @escaping @Sendable () -> Service) {
        register(Service.self, lifetime: .perRequest) { _ in factory() }
    }
}
