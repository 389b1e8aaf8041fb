/// Everything that can go wrong in GirdersTrema, with the file, line and column where it applies.
public enum TremaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file breaks trema's rules or is not well-formed XML; every violation found, in file order.
    case invalidDocument(file: String, violations: [Violation])
    /// A file cannot be read.
    case cannotRead(path: String, reason: String)
    /// A file cannot be written.
    case cannotWrite(path: String, reason: String)
    /// The export cannot be produced as asked (for example two keys map to one Android name).
    case exportFailed(reason: String)
    /// An export option cannot be used: `option` is its name (`table`, `languages`, `swiftTypeName`, ...).
    case invalidOption(option: String, value: String, reason: String)
    /// A `.strings` file is malformed.
    case invalidStringsFile(path: String, line: Int, reason: String)

    /// One broken rule and where.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// Where the problem is.
        public let location: SourceLocation
        /// What is wrong.
        public let message: String

        /// A violation.
        public init(location: SourceLocation, message: String) {
            self.location = location
            self.message = message
        }

        /// `file:line:column: message`, with control characters escaped (see ``TremaError/escaped(_:)``).
        public var description: String { TremaError.escaped("\(location): \(message)") }

        /// `file:line:column: error: message`, the form `swift build` and Xcode put on the line; escaped alike.
        public var diagnostic: String { TremaError.escaped("\(location): error: \(message)") }
    }

    /// `text` on one line: every control character (tab included), DEL, the C1 controls and the line and paragraph
    /// separators written as `\u{..}`. Every description uses it, so a key, value or path taken from a file cannot
    /// start a line of its own in a log or a build transcript, or reach a terminal as an escape sequence.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: SwiftSourceExporter.isUnsafeInSource) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if SwiftSourceExporter.isUnsafeInSource(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// One line per problem, each starting with `file:line:column:` where known; each line escaped (see
    /// ``escaped(_:)``), so only the separators between problems are line breaks.
    public var description: String {
        switch self {
        case .invalidDocument(_, let violations): violations.map(\.description).joined(separator: "\n")
        case .cannotRead(let path, let reason): Self.escaped("\(path): cannot read: \(reason)")
        case .cannotWrite(let path, let reason): Self.escaped("\(path): cannot write: \(reason)")
        case .exportFailed(let reason): Self.escaped("export failed: \(reason)")
        case .invalidOption(let option, let value, let reason):
            Self.escaped("invalid \(option) '\(value.debugDescription.dropFirst().dropLast())': \(reason)")
        case .invalidStringsFile(let path, let line, let reason): Self.escaped("\(path):\(line): \(reason)")
        }
    }
}
