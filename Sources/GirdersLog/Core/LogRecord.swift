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
    /// The call site's `#fileID`, for example `MyApp/Session.swift`.
    public let fileID: StaticString
    /// The call site's `#function`.
    public let functionName: StaticString
    /// The call site's `#line`, captured by default by every logging call; destinations may print it.
    public let line: UInt

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
        self.fileID = fileID
        self.functionName = function
        self.line = line
    }

    /// The call site's file as a `String`.
    public var file: String { fileID.description }

    /// The call site's function as a `String`.
    public var function: String { functionName.description }
}
