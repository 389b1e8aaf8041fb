/// The logging interface other Girders modules and apps depend on, as in GirdersSwift.
///
/// Conformers implement one method, ``log(_:_:metadata:fileID:function:line:)``; the six level methods come
/// from an extension. Messages and metadata are `@autoclosure`s: below the level nothing is built.
public protocol LogProtocol: Sendable {
    /// `true` when a line at `level` would be written somewhere.
    func isEnabled(_ level: LogLevel) -> Bool

    /// Logs a message at a level, capturing the call site.
    func log(
        _ level: LogLevel, _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata?,
        fileID: StaticString, function: StaticString, line: UInt)
}

extension LogProtocol {
    /// Logs detailed tracing output.
    @inlinable
    public func verbose(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.verbose, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs information useful while developing.
    @inlinable
    public func debug(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.debug, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs a normal, noteworthy event.
    @inlinable
    public func info(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.info, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs something unexpected that the program recovered from.
    @inlinable
    public func warning(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.warning, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs a failed operation. File destinations have the line on disk before this returns.
    @inlinable
    public func error(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.error, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs that the program cannot continue as intended, then flushes. Never terminates the process.
    @inlinable
    public func fatal(
        _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        log(.fatal, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }
}
