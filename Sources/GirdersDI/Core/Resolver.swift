/// Resolving services, abstracted: ``Container`` conforms, so code that only resolves can take `some Resolver`
/// and tests can pass their own.
public protocol Resolver: Sendable {
    /// Resolves the registration for `type` and `name`.
    /// - Throws: ``ContainerError`` naming the type, or the chain of types for cycles and failing factories.
    func resolveOrThrow<Service>(_ type: Service.Type, name: String?) throws -> Service
}

extension Resolver {
    /// Resolves a service whose type is inferred: `let api: APIClient = try resolver.resolveOrThrow()`.
    @inlinable @inline(__always)
    public func resolveOrThrow<Service>(name: String? = nil) throws -> Service {
        try resolveOrThrow(Service.self, name: name)
    }
}
