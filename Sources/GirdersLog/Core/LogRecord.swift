public import Foundation

/// One log line as it reaches a destination, before formatting.
public struct LogRecord: Sendable {
    /// When the line was logged.
    public let timestamp: Date
    /// The severity.
    public let level: LogLevel
    /// The label of the logger that produced the line, typically a subsystem name.
    public let label: String
    /// The message, with its private parts marked.
    public let message: LogMessage
    /// The logger's metadata merged with the call's (the call wins).
    public let metadata: LogMetadata
    /// The call site's `#fileID` (for example `MyApp/Session.swift`) when the record was logged through Girders'
    /// own API; `nil` when it came from another logging system with its file as text (see ``file``).
    public var fileID: StaticString? {
        if case .literal(let fileID, _) = location { fileID } else { nil }
    }
    /// The call site's `#function` when the record was logged through Girders' own API; `nil` when it came from
    /// another logging system (see ``function``).
    public var functionName: StaticString? {
        if case .literal(_, let function) = location { function } else { nil }
    }
    /// The call site's `#line`, captured by default by every logging call; destinations may print it.
    public let line: UInt
    private let location: Location

    /// Where a record was logged: the call site's literals (no copy), or text another logging system handed over.
    private enum Location: Sendable {
        case literal(StaticString, StaticString)
        case text(String, String)
    }

    /// Creates a record; loggers do this for you, tests and custom front ends may do it directly.
    public init(
        timestamp: Date = Date(), level: LogLevel, label: String, message: LogMessage, metadata: LogMetadata = [:],
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        self.timestamp = timestamp
        self.level = level
        self.label = label
        self.message = message
        self.metadata = metadata
        self.location = .literal(fileID, function)
        self.line = line
    }

    /// Creates a record whose call site another logging system gave as text (swift-log's `LogHandler` receives
    /// `file` and `function` as `String`s).
    public init(
        timestamp: Date = Date(), level: LogLevel, label: String, message: LogMessage, metadata: LogMetadata = [:],
        file: String, function: String, line: UInt
    ) {
        self.timestamp = timestamp
        self.level = level
        self.label = label
        self.message = message
        self.metadata = metadata
        self.location = .text(file, function)
        self.line = line
    }

    /// The call site's file as a `String`: its `#fileID`, or the text another logging system gave.
    public var file: String {
        switch location {
        case .literal(let fileID, _): fileID.description
        case .text(let file, _): file
        }
    }

    /// The call site's function as a `String`.
    public var function: String {
        switch location {
        case .literal(_, let function): function.description
        case .text(_, let function): function
        }
    }

    /// Appends the call site's file as UTF-8, without building a `String` for a literal; a file given as text is
    /// escaped like a label (it came from elsewhere and may hold a line break).
    func appendFile(to buffer: inout [UInt8]) {
        switch location {
        case .literal(let fileID, _): fileID.withUTF8Buffer { buffer.append(contentsOf: $0) }
        case .text(let file, _): LogEscaping.append(file, to: &buffer)
        }
    }
}
