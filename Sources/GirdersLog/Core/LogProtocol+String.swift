/// Overloads taking a `String`, so existing call sites such as `log.error(error.localizedDescription)` compile.
extension LogProtocol {
    /// Logs a plain string at `level`.
    @inlinable
    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(level, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs a plain string at verbose level.
    @inlinable
    public func verbose(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.verbose, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs a plain string at debug level.
    @inlinable
    public func debug(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.debug, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs a plain string at info level.
    @inlinable
    public func info(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.info, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs a plain string at warning level.
    @inlinable
    public func warning(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.warning, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs a plain string at error level.
    @inlinable
    public func error(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.error, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs a plain string at fatal level, then flushes.
    @inlinable
    public func fatal(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.fatal, LogMessage(message()), metadata: metadata(), fileID: fileID, function: function, line: line)
    }
}
