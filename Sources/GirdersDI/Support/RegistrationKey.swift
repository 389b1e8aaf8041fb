/// The identity of a registration: the type's identity (never its name) plus an optional name.
struct RegistrationKey: Hashable, Sendable {
    let type: ObjectIdentifier
    let name: String?

    init<Service>(_ type: Service.Type, name: String?) {
        self.type = ObjectIdentifier(type)
        self.name = name
    }
}

/// A fully qualified type name plus the registration name, as errors print it.
func describe<Service>(_ type: Service.Type, name: String?) -> String {
    let typeName = String(reflecting: type)
    return name.map { "\(typeName) named \"\($0)\"" } ?? typeName
}
