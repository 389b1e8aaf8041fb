/// Sends every record to several destinations, each filtering by its own minimum level.
///
/// ```swift
/// let both = FanOutDestination([
///     ConsoleDestination(minimumLevel: .info),
///     try FileDestination(url: logURL, minimumLevel: .debug),
/// ])
/// let logger = Logger(label: "app", destination: both)
/// ```
public struct FanOutDestination: LogDestination {
    /// The destinations, in the order they receive records.
    public let destinations: [any LogDestination]
    /// The lowest minimum level of all destinations, so a logger skips lines none of them wants.
    public let minimumLevel: LogLevel
    private let levels: [LogLevel]

    /// Creates a fan-out over `destinations`. With none, it drops everything.
    public init(_ destinations: [any LogDestination]) {
        self.destinations = destinations
        self.levels = destinations.map(\.minimumLevel)
        self.minimumLevel = levels.min() ?? .fatal
    }

    /// Forwards the record to each destination whose level it reaches.
    public func write(_ record: LogRecord) {
        for (destination, level) in zip(destinations, levels) where record.level >= level {
            destination.write(record)
        }
    }

    /// Flushes every destination.
    public func flush() {
        for destination in destinations {
            destination.flush()
        }
    }
}
