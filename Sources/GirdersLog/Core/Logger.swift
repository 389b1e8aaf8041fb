import Foundation

/// A value-type logger: a label, metadata and a level in front of a ``LogDestination``.
///
/// Copies are cheap and independent: changing the metadata of a copy does not change the original.
///
/// - Cost: a call below the logger's or the destination's level builds nothing (the message is an autoclosure):
///   about 1 ns (`LogBenchmarks`).
/// - Threading: `Logger` is a `Sendable` value; destinations are `Sendable` and write whole lines, so loggers may
///   be used from any thread or task.
/// - Safety: values interpolated with `privacy: .private` print as `<redacted>` unless the destination reveals
///   them; the default formatter escapes line breaks and control characters, so no value can forge a line.
///
/// ```swift
/// var logger = Logger(label: "com.example.sync", destination: ConsoleDestination(minimumLevel: .info))
/// logger[metadataKey: "account"] = "alice"
/// logger.info("Sync started")
/// logger.debug("Not built: below the destination's level \(expensiveDump())")
/// ```
public struct Logger: LogProtocol {
    /// Identifies the component that logs, printed on every line.
    public let label: String
    /// Metadata attached to every line; per-call metadata wins on equal keys.
    public var metadata: LogMetadata
    /// The logger's own minimum level, applied before the destination's. Defaults to `verbose`.
    public var level: LogLevel
    /// Where lines go.
    public let destination: any LogDestination
    /// The destination's minimum level, read once: destinations promise it does not change.
    @usableFromInline let destinationLevel: LogLevel

    /// Creates a logger.
    /// - Parameters:
    ///   - label: Identifies the component that logs.
    ///   - destination: Where lines go; use ``FanOutDestination`` for several.
    ///   - level: The logger's own minimum level.
    ///   - metadata: Metadata attached to every line.
    public init(
        label: String, destination: any LogDestination, level: LogLevel = .verbose, metadata: LogMetadata = [:]
    ) {
        self.label = label
        self.destination = destination
        self.destinationLevel = destination.minimumLevel
        self.level = level
        self.metadata = metadata
    }

    /// Reads or writes one metadata value.
    public subscript(metadataKey key: String) -> LogMetadataValue? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// `true` when a line at `level` passes both the logger's and the destination's minimum level.
    @inlinable
    public func isEnabled(_ level: LogLevel) -> Bool {
        level >= self.level && level >= destinationLevel
    }

    /// Logs a message; below the level neither the message nor the metadata is evaluated.
    @inlinable
    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        guard isEnabled(level) else { return }
        emit(level, message(), metadata(), fileID: fileID, function: function, line: line)
    }

    /// A copy of this logger that writes to another destination, keeping label, level and metadata.
    public func withDestination(_ destination: any LogDestination) -> Logger {
        Logger(label: label, destination: destination, level: level, metadata: metadata)
    }

    @usableFromInline
    func emit(
        _ level: LogLevel, _ message: LogMessage, _ callMetadata: LogMetadata?, fileID: StaticString,
        function: StaticString, line: UInt
    ) {
        var merged = metadata
        if let callMetadata, !callMetadata.isEmpty {
            if merged.isEmpty {
                merged = callMetadata
            } else {
                merged.merge(callMetadata) { _, call in call }
            }
        }
        let record = LogRecord(
            timestamp: Date(), level: level, label: label, message: message, metadata: merged, fileID: fileID,
            function: function, line: line)
        destination.write(record)
        if level == .fatal {
            destination.flush()
        }
    }
}
