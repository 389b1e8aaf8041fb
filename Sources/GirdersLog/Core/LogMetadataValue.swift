/// Structured context attached to log lines, keyed by name.
public typealias LogMetadata = [String: LogMetadataValue]

/// One metadata value: a string, a list, a dictionary, or a private value that prints as `<redacted>`.
///
/// ```swift
/// logger[metadataKey: "user"] = "alice"
/// logger[metadataKey: "token"] = .private("abc123")
/// ```
public indirect enum LogMetadataValue: Sendable, Hashable, ExpressibleByStringLiteral,
    ExpressibleByStringInterpolation, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// A plain string.
    case string(String)
    /// An ordered list of values.
    case array([LogMetadataValue])
    /// Nested values keyed by name.
    case dictionary(LogMetadata)
    /// A value printed as `<redacted>` unless the destination reveals private data.
    case `private`(LogMetadataValue)

    /// Creates a string value from a literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// Creates a list from a literal.
    public init(arrayLiteral elements: LogMetadataValue...) {
        self = .array(elements)
    }

    /// Creates a dictionary from a literal.
    public init(dictionaryLiteral elements: (String, LogMetadataValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Creates a private value from any value's description.
    public static func `private`(_ text: String) -> LogMetadataValue {
        .private(.string(text))
    }

    /// The redacted rendering, so printing a value never leaks a private part.
    public var description: String { rendered(revealingPrivate: false) }

    /// Renders the value as log text: lists as `[a, b]`, dictionaries as `[k: v]` sorted by key.
    public func rendered(revealingPrivate: Bool) -> String {
        var output = ""
        render(into: &output, revealingPrivate: revealingPrivate)
        return output
    }

    func render(into output: inout String, revealingPrivate: Bool) {
        switch self {
        case .string(let text):
            output += text
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += ", " }
                value.render(into: &output, revealingPrivate: revealingPrivate)
            }
            output += "]"
        case .dictionary(let values):
            output += "["
            for (index, key) in values.keys.sorted().enumerated() {
                if index > 0 { output += ", " }
                output += key
                output += ": "
                values[key]?.render(into: &output, revealingPrivate: revealingPrivate)
            }
            output += "]"
        case .private(let value):
            if revealingPrivate {
                value.render(into: &output, revealingPrivate: true)
            } else {
                output += LogPrivacy.redactedPlaceholder
            }
        }
    }
}
