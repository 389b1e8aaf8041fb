// Every deprecated declaration of GirdersLog, in one place; each message says what to write now.

extension DefaultLogFormatter {
    /// The earlier spelling: `escapesNewlines: false` is `allowsMultilineMessages: true`.
    @available(*, deprecated, message: "escaping is the default; use init(includesCallSite:allowsMultilineMessages:)")
    public init(includesCallSite: Bool = true, escapesNewlines: Bool) {
        self.init(includesCallSite: includesCallSite, allowsMultilineMessages: !escapesNewlines)
    }
}
