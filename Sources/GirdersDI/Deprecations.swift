// Every deprecated declaration of GirdersDI, in one place; each message says what to write now.

extension Container {
    /// GirdersSwift's `Container.cleanup()`: removes every registration and singleton of ``Container/shared``.
    @available(*, deprecated, message: "call Container.shared.removeAll(), or give each test a Container() of its own")
    public static func cleanup() {
        shared.removeAll()
    }
}
