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

        /// `file:line:column: message`.
        public var description: String { "\(location): \(message)" }
    }

    /// One line per problem, each starting with `file:line:column:` where known.
    public var description: String {
        switch self {
        case .invalidDocument(_, let violations): violations.map(\.description).joined(separator: "\n")
        case .cannotRead(let path, let reason): "\(path): cannot read: \(reason)"
        case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason)"
        case .exportFailed(let reason): "export failed: \(reason)"
        case .invalidOption(let option, let value, let reason):
            "invalid \(option) '\(value.debugDescription.dropFirst().dropLast())': \(reason)"
        case .invalidStringsFile(let path, let line, let reason): "\(path):\(line): \(reason)"
        }
    }
}
