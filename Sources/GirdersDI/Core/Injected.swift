/// Lazy injection: the service is resolved on first access and then kept.
///
/// ```swift
/// final class ProfileViewModel {
///     @Injected var users: UserService
///     @Injected(name: "cdn", container: appContainer) var images: ImageLoader
/// }
/// ```
/// A missing registration stops the program with the container's message, like `Container.resolve()`.
@propertyWrapper
public final class Injected<Service> {
    @usableFromInline let name: String?
    @usableFromInline let container: Container
    @usableFromInline var resolved: Service?

    /// Resolves from `container` (the shared one by default) on first access.
    public init(name: String? = nil, container: Container = .shared) {
        self.name = name
        self.container = container
    }

    /// The service, resolved on first access; inlined, so the first access is as fast as `resolveOrThrow`.
    @inlinable
    public var wrappedValue: Service {
        if let resolved { return resolved }
        let service: Service = container.resolve(name: name)
        resolved = service
        return service
    }
}
