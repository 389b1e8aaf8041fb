/// The identity of a registration: the type's identity (never its name) plus an optional name.
///
/// Always the static type `Service`, never a metatype value: `type(of: base)` may be a subclass's metatype at
/// run time, and keying by it would file a factory of `Base` under `Derived`.
@usableFromInline
struct RegistrationKey: Hashable, Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: String?

    init<Service>(of _: Service.Type, name: String?) {
        self.init(type: ObjectIdentifier(Service.self), name: name)
    }

    @usableFromInline
    init(type: ObjectIdentifier, name: String?) {
        self.type = type
        self.name = name
    }
}

/// A fully qualified type name plus the registration name, as errors print it.
func describe<Service>(_: Service.Type, name: String?) -> String {
    let typeName = String(reflecting: Service.self)
    return name.map { "\(typeName) named \"\($0)\"" } ?? typeName
}
