/// Where log lines go: the small backend protocol behind ``Logger``.
///
/// Implementations must be thread-safe: `write` is called from any thread, concurrently. A destination drops
/// records below its own ``minimumLevel``; loggers skip it entirely when every destination would drop a line.
///
/// ```swift
/// struct PrintDestination: LogDestination {
///     let minimumLevel: LogLevel = .info
///     func write(_ record: LogRecord) { print(record.message) }
/// }
/// ```
public protocol LogDestination: Sendable {
    /// The lowest level this destination writes. Must not change after the destination was created.
    var minimumLevel: LogLevel { get }

    /// Writes one record at or above ``minimumLevel``.
    func write(_ record: LogRecord)

    /// Makes every record written so far durable or visible. Called after `fatal` lines.
    func flush()
}

extension LogDestination {
    /// Destinations without buffers have nothing to flush.
    public func flush() {}
}
