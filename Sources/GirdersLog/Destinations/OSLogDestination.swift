#if canImport(os)
import os

/// Writes to Apple's unified logging system through `os.Logger` (Apple platforms only).
///
/// Levels map to `debug` (verbose, debug), `info`, `default` (warning), `error` and `fault` (fatal). A line with
/// private values, in its message or its metadata, is sent with `privacy: .private` when the destination reveals
/// private data, so the system still hides it outside debugging; otherwise its redacted text is sent as public
/// (see `OSLogLine`, which decides this on every platform).
public struct OSLogDestination: LogDestination {
    /// The lowest level written.
    public let minimumLevel: LogLevel
    /// Whether private values are handed to the system (which keeps them private).
    public let revealsPrivateData: Bool
    private let logger: os.Logger

    /// Creates a destination for a subsystem and category.
    public init(
        subsystem: String, category: String, minimumLevel: LogLevel = .verbose, revealsPrivateData: Bool = false
    ) {
        self.logger = os.Logger(subsystem: subsystem, category: category)
        self.minimumLevel = minimumLevel
        self.revealsPrivateData = revealsPrivateData
    }

    /// Sends one record to the unified log, with the level and privacy ``OSLogLine`` chose.
    public func write(_ record: LogRecord) {
        let line = OSLogLine(record, revealsPrivateData: revealsPrivateData)
        let type = OSLogType(rawValue: line.level.rawValue)
        if line.isPrivate {
            logger.log(level: type, "\(line.text, privacy: .private)")
        } else {
            logger.log(level: type, "\(line.text, privacy: .public)")
        }
    }
}
#endif
