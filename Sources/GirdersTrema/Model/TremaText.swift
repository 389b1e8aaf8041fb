/// One key with its context and its values, one per language.
public struct TremaText: Sendable, CustomStringConvertible {
    /// The key, the context and the location behind one reference, so a copy retains it and the values (see
    /// ``TremaValue``); never changed once made, a setter makes a new one.
    private final class Storage: Sendable {
        let key: String
        let context: String
        let location: SourceLocation?

        init(key: String, context: String, location: SourceLocation?) {
            self.key = key
            self.context = context
            self.location = location
        }
    }

    private var storage: Storage

    /// The key, unique in a document.
    public var key: String {
        get { storage.key }
        set { storage = Storage(key: newValue, context: context, location: location) }
    }
    /// A note for translators; empty when the file's `<context/>` is empty.
    public var context: String {
        get { storage.context }
        set { storage = Storage(key: key, context: newValue, location: location) }
    }
    /// The values in file order; at most one per language.
    public var values: [TremaValue]
    /// Where the `<text>` element starts, when parsed from a file.
    public var location: SourceLocation? {
        get { storage.location }
        set { storage = Storage(key: key, context: context, location: newValue) }
    }

    /// A text.
    public init(key: String, context: String = "", values: [TremaValue], location: SourceLocation? = nil) {
        storage = Storage(key: key, context: context, location: location)
        self.values = values
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
