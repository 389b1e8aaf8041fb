#if canImport(os)
import os
#endif

/// Writes to Apple's unified logging system through `os.Logger`.
///
/// Levels map to `debug` (verbose, debug), `info`, `default` (warning), `error` and `fault` (fatal). A line with
/// private values, in its message or its metadata, is sent with `privacy: .private` when the destination reveals
/// private data, so the system still hides it outside debugging; otherwise its redacted text is sent as public
/// (see `OSLogLine`, which decides this on every platform).
///
/// Apple platforms only: elsewhere the type exists (so the decision above is tested everywhere) but has no
/// public initialiser.
///
/// ```swift
/// let logger = Logger(label: "network", destination: OSLogDestination(subsystem: "com.example.app", category: "network"))
/// ```
public struct OSLogDestination: LogDestination {
    /// The lowest level written.
    public let minimumLevel: LogLevel
    /// Whether private values are handed to the system (which keeps them private).
    public let revealsPrivateData: Bool
    private let log: any UnifiedLog

    #if canImport(os)
    /// Creates a destination for a subsystem and category.
    public init(
        subsystem: String, category: String, minimumLevel: LogLevel = .verbose, revealsPrivateData: Bool = false
    ) {
        let log = SystemUnifiedLog(logger: os.Logger(subsystem: subsystem, category: category))
        self.init(log: log, minimumLevel: minimumLevel, revealsPrivateData: revealsPrivateData)
    }
    #endif

    /// A destination writing to `log`: the unified log on Apple platforms, a recorder in the tests.
    init(log: any UnifiedLog, minimumLevel: LogLevel, revealsPrivateData: Bool) {
        self.log = log
        self.minimumLevel = minimumLevel
        self.revealsPrivateData = revealsPrivateData
    }

    /// Sends one record to the unified log at the record's level. Private parts are redacted and the line goes
    /// out `.public`, unless `revealsPrivateData` is set and the line has a private part (in the message or its
    /// metadata): then the revealed line goes out `.private`. A private value never reaches the log marked public.
    public func write(_ record: LogRecord) {
        log.write(OSLogLine(record, revealsPrivateData: revealsPrivateData))
    }
}

/// Where ``OSLogDestination`` sends its lines: `os.Logger` on Apple platforms.
protocol UnifiedLog: Sendable {
    /// Writes `line` at its level, its text `.private` when ``OSLogLine/isPrivate``, else `.public`.
    func write(_ line: OSLogLine)
}

#if canImport(os)
/// `os.Logger` behind ``UnifiedLog``: `privacy:` must be a literal, hence the two calls.
struct SystemUnifiedLog: UnifiedLog {
    let logger: os.Logger

    func write(_ line: OSLogLine) {
        let type = OSLogType(rawValue: line.level.rawValue)
        if line.isPrivate {
            logger.log(level: type, "\(line.text, privacy: .private)")
        } else {
            logger.log(level: type, "\(line.text, privacy: .public)")
        }
    }
}
#endif
