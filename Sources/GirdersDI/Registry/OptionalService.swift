/// Lets `let child: Child? = try resolver.resolveOrThrow()` resolve `Child`, which is what property injection
/// into optional properties means. `nil` only when `Child` itself is not registered; a failing factory or a
/// missing dependency of `Child` still throws.
protocol OptionalService {
    static func resolveWrapped(in container: Container, name: String?) throws -> Self
}

extension Optional: OptionalService {
    static func resolveWrapped(in container: Container, name: String?) throws -> Wrapped? {
        guard container.isRegistered(Wrapped.self, name: name) else { return nil }
        return try container.resolveWithoutOverrides(Wrapped.self, name: name)
    }
}
