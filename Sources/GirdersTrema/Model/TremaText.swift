/// One key with its context and its values, one per language.
public struct TremaText: Sendable, CustomStringConvertible {
    /// The key, unique in a document.
    public var key: String
    /// A note for translators; empty when the file's `<context/>` is empty.
    public var context: String
    /// The values in file order; at most one per language.
    public var values: [TremaValue]
    /// Where the `<text>` element starts, when parsed from a file.
    public var location: SourceLocation?

    /// A text.
    public init(key: String, context: String = "", values: [TremaValue], location: SourceLocation? = nil) {
        self.key = key
        self.context = context
        self.values = values
        self.location = location
    }

    /// The value for `language`, if there is one.
    public func value(for language: String) -> TremaValue? {
        values.first { $0.language == language }
    }

    /// `key (n values)`.
    public var description: String { "\(key) (\(values.count) values)" }
}

extension TremaText: Equatable {
    /// Equal when key, context and values are; locations are not compared.
    public static func == (lhs: TremaText, rhs: TremaText) -> Bool {
        lhs.key == rhs.key && lhs.context == rhs.context && lhs.values == rhs.values
    }
}
