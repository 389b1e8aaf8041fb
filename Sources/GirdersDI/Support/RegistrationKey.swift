/// The identity of a registration: the type's identity (never its name) plus an optional name.
@usableFromInline
struct RegistrationKey: Hashable, Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: String?

    init<Service>(_ type: Service.Type, name: String?) {
        self.init(type: ObjectIdentifier(type), name: name)
    }

    @usableFromInline
    init(type: ObjectIdentifier, name: String?) {
        self.type = type
        self.name = name
    }
}

/// A fully qualified type name plus the registration name, as errors print it.
func describe<Service>(_ type: Service.Type, name: String?) -> String {
    let typeName = String(reflecting: type)
    return name.map { "\(typeName) named \"\($0)\"" } ?? typeName
}
