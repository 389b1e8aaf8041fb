/// Optional services: `let cache: ImageCache? = try container.resolveOrThrow()` is the registered `ImageCache`, or
/// `nil` when none is registered; a failing factory or a missing dependency of `ImageCache` still throws.
///
/// These overloads meet `Optional` at compile time, so an optional resolve runs the same specialised fast path as
/// a plain one instead of a dynamic cast. An explicit `Optional<ImageCache>` registration wins over `ImageCache`.
///
/// ```swift
/// let analytics: Analytics? = try container.resolveOrThrow()   // nil in builds that register none
/// let logger: Logger? = Container.resolve()                     // GirdersSwift's static form
/// ```
extension Container {
    /// Resolves `Wrapped` if registered (here, in a parent, or as an explicit `Optional<Wrapped>`), else `nil`.
    /// - Throws: ``ContainerError`` when the registration exists but cannot be built.
    @inlinable @inline(__always)
    public func resolveOrThrow<Wrapped>(_ type: Wrapped?.Type, name: String?) throws -> Wrapped? {
        try resolveOptional(Wrapped.self, name: name)
    }

    /// `resolveOrThrow(_:name:)` with the type inferred.
    @inlinable @inline(__always)
    public func resolveOrThrow<Wrapped>(name: String? = nil) throws -> Wrapped? {
        try resolveOptional(Wrapped.self, name: name)
    }

    /// Resolves `Wrapped` if registered, else `nil`; stops the program, as ``resolve(_:name:)`` does, only when
    /// the registration exists but cannot be built.
    @inlinable @inline(__always)
    public func resolve<Wrapped>(_ type: Wrapped?.Type = Wrapped?.self, name: String? = nil) -> Wrapped? {
        let epoch = RegistryGeneration.shared.current
        if epoch & 1 == 0, parent == nil,
            let built = builtInstance(Wrapped.self, name: name, epoch: epoch, unlessRegistered: Wrapped?.self)
        {
            return built
        }
        return resolveOptionalOrStop(Wrapped.self, name: name)
    }

    /// ``resolveOptional(_:name:)``, stopping the program on an error.
    @inlinable
    func resolveOptionalOrStop<Wrapped>(_ type: Wrapped.Type, name: String?) -> Wrapped? {
        do {
            return try resolveOptional(type, name: name)
        } catch {
            Self.stop(error)
        }
    }

    /// GirdersSwift's static form for an optional service on ``Container/shared``. (The type parameter, which
    /// callers leave out, is what makes the compiler prefer this overload for an optional result.)
    @inlinable @inline(__always)
    public static func resolve<Wrapped>(_ type: Wrapped?.Type = Wrapped?.self, name: String? = nil) -> Wrapped? {
        shared.resolve(Wrapped?.self, name: name)
    }

    /// The throwing static form for an optional service on ``Container/shared``.
    @inlinable @inline(__always)
    public static func resolveOrThrow<Wrapped>(
        _ type: Wrapped?.Type = Wrapped?.self, name: String? = nil
    ) throws -> Wrapped? {
        try shared.resolveOptional(Wrapped.self, name: name)
    }
}
