/// Lets `let child: Child? = try resolver.resolveOrThrow()` resolve `Child`, which is what property injection
/// into optional properties means. `nil` only when `Child` itself is not registered; a failing factory or a
/// missing dependency of `Child` still throws.
protocol OptionalService {
    static func resolveWrapped(in container: Container, name: String?) throws -> Self
}

extension Optional: OptionalService {
    /// `nil` when `Wrapped` is not registered, else `Wrapped` (whose own failures throw). No `do`/`catch` here:
    /// it would make every level of a deep chain of optional dependencies take twice the stack.
    static func resolveWrapped(in container: Container, name: String?) throws -> Wrapped? {
        guard container.isRegistered(Wrapped.self, name: name) else { return nil }
        return try container.resolveWithoutOverrides(Wrapped.self, name: name)
    }
}

extension ThreadResolutionState {
    /// `Service` as an ``OptionalService``, or `nil`; the conformance check is remembered per thread, as the
    /// runtime's costs about a hundred nanoseconds.
    func optionalType<Service>(of _: Service.Type) -> (any OptionalService.Type)? {
        let key = ObjectIdentifier(Service.self)
        if let known = optionalTypes[key] { return known }
        let found = Service.self as? any OptionalService.Type
        optionalTypes[key] = .some(found)
        return found
    }
}
