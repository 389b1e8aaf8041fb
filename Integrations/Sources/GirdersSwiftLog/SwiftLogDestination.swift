public import GirdersLog
public import Logging

/// A GirdersLog destination that writes every record to a swift-log `Logger`, so an app's GirdersLog lines reach
/// whatever swift-log was bootstrapped with (a server's JSON logs, OpenTelemetry).
///
/// Levels map as ``GirdersLog/LogLevel/swiftLogLevel``; the record's label goes along as metadata `label`
/// (swift-log's logger has its own). swift-log has no privacy of its own, so private parts of the message and
/// metadata are redacted before they leave (`<redacted>`) unless the destination was made with
/// `revealsPrivateData: true`. A record that arrived from swift-log through ``GirdersLogHandler`` is not sent back.
///
/// ```swift
/// let logger = GirdersLog.Logger(label: "app", destination: SwiftLogDestination(Logging.Logger(label: "app")))
/// ```
public struct SwiftLogDestination: LogDestination {
    /// The lowest level written; records below it are not handed to swift-log at all.
    public let minimumLevel: GirdersLog.LogLevel
    /// Whether private values reach swift-log as they are.
    public let revealsPrivateData: Bool
    private let logger: Logging.Logger

    /// A destination writing to `logger`, from `minimumLevel` up.
    public init(
        _ logger: Logging.Logger, minimumLevel: GirdersLog.LogLevel = .verbose, revealsPrivateData: Bool = false
    ) {
        self.logger = logger
        self.minimumLevel = minimumLevel
        self.revealsPrivateData = revealsPrivateData
    }

    /// Hands `record` to swift-log, once: not when it is crossing back from swift-log.
    public func write(_ record: LogRecord) {
        // Below the swift-log logger's own level nothing is built: swift-log would drop it after the conversion.
        guard !BridgeCrossing.isCrossing, record.level.swiftLogLevel >= logger.logLevel else { return }
        var metadata = record.metadata.mapValues { $0.swiftLogValue(revealingPrivate: revealsPrivateData) }
        metadata["label"] = metadata["label"] ?? .string(record.label)
        let message = Logging.Logger.Message(stringLiteral: record.message.text(revealingPrivate: revealsPrivateData))
        BridgeCrossing.$isCrossing.withValue(true) {
            logger.log(
                level: record.level.swiftLogLevel, message, metadata: metadata, source: nil, file: record.file,
                function: record.function, line: record.line)
        }
    }
}
