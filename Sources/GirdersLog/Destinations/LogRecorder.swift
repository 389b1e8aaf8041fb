import GirdersSupport

/// Keeps every record in memory so that tests can assert on what was logged.
///
/// ```swift
/// let recorder = LogRecorder()
/// let logger = Logger(label: "test", destination: recorder)
/// logger.warning("Disk almost full")
/// #expect(recorder.contains(.warning, message: "almost full"))
/// ```
public final class LogRecorder: LogDestination {
    /// The lowest level recorded.
    public let minimumLevel: LogLevel
    /// Whether ``messages`` shows private values as they are.
    public let revealsPrivateData: Bool

    private let state = LockedState(Recorded())

    private struct Recorded {
        var records: [LogRecord] = []
        var flushCount = 0
    }

    /// Creates an empty recorder.
    public init(minimumLevel: LogLevel = .verbose, revealsPrivateData: Bool = false) {
        self.minimumLevel = minimumLevel
        self.revealsPrivateData = revealsPrivateData
    }

    /// Stores the record.
    public func write(_ record: LogRecord) {
        state.withLock { $0.records.append(record) }
    }

    /// Counts the flush; see ``flushCount``.
    public func flush() {
        state.withLock { $0.flushCount += 1 }
    }

    /// Every record so far, oldest first.
    public var records: [LogRecord] { state.withLock { $0.records } }

    /// The message texts so far, with private values redacted unless ``revealsPrivateData``.
    public var messages: [String] {
        records.map { $0.message.text(revealingPrivate: revealsPrivateData) }
    }

    /// How often ``flush()`` was called (loggers flush after every fatal line).
    public var flushCount: Int { state.withLock { $0.flushCount } }

    /// The records at exactly `level`.
    public func records(at level: LogLevel) -> [LogRecord] {
        records.filter { $0.level == level }
    }

    /// `true` when a record (at `level`, if given) has a message containing `text`.
    public func contains(_ level: LogLevel? = nil, message text: String) -> Bool {
        records.contains { record in
            (level == nil || record.level == level)
                && record.message.text(revealingPrivate: revealsPrivateData).contains(text)
        }
    }

    /// Forgets everything recorded.
    public func removeAll() {
        state.withLock { $0 = Recorded() }
    }
}
