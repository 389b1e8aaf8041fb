#if canImport(os)
import os

/// Writes to Apple's unified logging system through `os.Logger` (Apple platforms only).
///
/// Levels map to `debug` (verbose, debug), `info`, `default` (warning), `error` and `fault` (fatal). A message
/// with private values is sent with `privacy: .private` when the destination reveals private data, so the system
/// still hides it outside debugging; otherwise its redacted text is sent as public.
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

    /// Sends one record to the unified log.
    public func write(_ record: LogRecord) {
        let type: OSLogType =
            switch record.level {
            case .verbose, .debug: .debug
            case .info: .info
            case .warning: .default
            case .error: .error
            case .fatal: .fault
            }
        let metadata = record.metadata.keys.sorted().map { key in
            "\(key)=\(record.metadata[key]?.rendered(revealingPrivate: revealsPrivateData) ?? "")"
        }
        let suffix = metadata.isEmpty ? "" : " " + metadata.joined(separator: " ")
        if revealsPrivateData && record.message.containsPrivateData {
            logger.log(level: type, "\(record.message.revealedText + suffix, privacy: .private)")
        } else {
            logger.log(level: type, "\(record.message.redactedText + suffix, privacy: .public)")
        }
    }
}
#endif
