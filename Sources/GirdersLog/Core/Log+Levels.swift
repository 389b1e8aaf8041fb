/// The six level methods of the facade, each with a ``LogMessage`` and a `String` form.
extension Log {
    /// Logs detailed tracing output.
    public static func verbose(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.verbose, message(), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs information useful while developing.
    public static func debug(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.debug, message(), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs a normal, noteworthy event.
    public static func info(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.info, message(), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs something unexpected that the program recovered from.
    public static func warning(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.warning, message(), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs a failed operation.
    public static func error(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.error, message(), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs that the program cannot continue as intended, then flushes. Never terminates the process.
    public static func fatal(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.fatal, message(), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs a plain string at verbose level.
    public static func verbose(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.verbose, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs a plain string at debug level.
    public static func debug(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.debug, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs a plain string at info level.
    public static func info(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.info, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs a plain string at warning level.
    public static func warning(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.warning, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs a plain string at error level.
    public static func error(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.error, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line) }

    /// Logs a plain string at fatal level, then flushes.
    public static func fatal(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) { log(.fatal, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line) }
}
