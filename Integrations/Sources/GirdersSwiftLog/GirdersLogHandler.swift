public import GirdersLog
public import Logging

/// A swift-log `LogHandler` that writes through a GirdersLog destination, so a server's swift-log lines (its own
/// and its libraries') reach GirdersLog's destinations: files with rotation, the console, the unified log.
///
/// Levels map as ``GirdersLog/LogLevel/init(_:)`` (`notice` becomes `info`); metadata (the logger's, the metadata
/// provider's and the call's, the call winning) becomes GirdersLog metadata, with swift-log's `source` as `source`;
/// the call site's file and function go along as text. A record that arrived from GirdersLog through
/// ``SwiftLogDestination`` is not sent back.
///
/// ```swift
/// let file = try FileDestination(url: logFile)
/// LoggingSystem.bootstrap { label in GirdersLogHandler(label: label, destination: file) }
/// ```
public struct GirdersLogHandler: LogHandler {
    /// The level below which swift-log does not call the handler.
    public var logLevel: Logging.Logger.Level
    /// The handler's own metadata, added to every record.
    public var metadata: Logging.Logger.Metadata = [:]
    /// Contextual metadata, read for every record.
    public var metadataProvider: Logging.Logger.MetadataProvider?
    private let label: String
    private let destination: any LogDestination

    /// A handler for the logger `label`, writing to `destination` (one destination, or a `FanOutDestination`).
    public init(
        label: String, destination: any LogDestination, logLevel: Logging.Logger.Level = .info,
        metadataProvider: Logging.Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.destination = destination
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
    }

    /// One metadata entry of the handler.
    public subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the event to the destination when its level reaches the destination's minimum, once: not when it is
    /// crossing back from GirdersLog.
    public func log(event: LogEvent) {
        let level = GirdersLog.LogLevel(event.level)
        guard level >= destination.minimumLevel, !BridgeCrossing.isCrossing else { return }
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let call = event.metadata { merged.merge(call) { _, new in new } }
        var converted = merged.mapValues { GirdersLog.LogMetadataValue($0) }
        if converted["source"] == nil, !event.source.isEmpty { converted["source"] = .string(event.source) }
        let record = LogRecord(
            level: level, label: label, message: LogMessage(event.message.description), metadata: converted,
            file: event.file, function: event.function, line: event.line)
        BridgeCrossing.$isCrossing.withValue(true) { destination.write(record) }
        if level == .fatal { destination.flush() }
    }
}
