/// The process-wide logging facade, called as in GirdersSwift: `Log.debug("...")`.
///
/// It forwards to ``Log/logger``, which can be replaced at any time (never a one-shot bootstrap). Tests that run
/// in parallel scope their own logger with ``withLogger(_:operation:)-(_,()->Result)``, which applies to the
/// closure and every task it starts, without touching other tests.
///
/// ```swift
/// Log.logger = Logger(label: "app", destination: ConsoleDestination(minimumLevel: .info))
/// Log.info("Started")
/// ```
public enum Log {
    struct State {
        var logger: Logger
        var threshold: LogLevel
        var activeScopes: Int

        mutating func replace(_ newLogger: Logger) {
            logger = newLogger
            threshold = max(newLogger.level, newLogger.destinationLevel)
        }
    }

    static let state: LockedState<State> = {
        let logger = Logger(
            label: "girders", destination: ConsoleDestination(stream: .standardError), level: LogLevel.legacyDefault)
        return LockedState(State(logger: logger, threshold: logger.level, activeScopes: 0))
    }()

    @TaskLocal static var scopedLogger: Logger?

    /// The logger the facade forwards to: a scoped one inside ``withLogger(_:operation:)-(_,()->Result)``, else
    /// the process-wide one. Setting it replaces the process-wide logger for every thread at once.
    ///
    /// By default it writes to standard error at ``LogLevel/legacyDefault`` (warning).
    public static var logger: Logger {
        get { scopedLogger ?? state.withLock { $0.logger } }
        set { state.withLock { $0.replace(newValue) } }
    }

    /// The process-wide logger's own minimum level.
    public static var level: LogLevel {
        get { state.withLock { $0.logger.level } }
        set {
            state.withLock { shared in
                var updated = shared.logger
                updated.level = newValue
                shared.replace(updated)
            }
        }
    }

    /// Sets ``level`` from a configuration value as GirdersSwift read it (`logLevel`: 0...5, or a name).
    ///
    /// A missing value (`nil`) sets warning, as before; anything unreadable throws and leaves the level alone.
    public static func configureLevel(fromConfigurationValue value: Any?, key: String = "logLevel") throws {
        level = try LogLevel(configurationValue: value, key: key)
    }

    /// Runs `operation` with `logger` as the facade's logger, in this task and the tasks it starts.
    public static func withLogger<Result>(_ logger: Logger, operation: () throws -> Result) rethrows -> Result {
        state.withLock { $0.activeScopes += 1 }
        defer { state.withLock { $0.activeScopes -= 1 } }
        return try $scopedLogger.withValue(logger, operation: operation)
    }

    /// Runs `operation` with `logger` as the facade's logger, in this task and the tasks it starts.
    public static func withLogger<Result>(
        _ logger: Logger, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
    ) async rethrows -> Result {
        state.withLock { $0.activeScopes += 1 }
        defer { state.withLock { $0.activeScopes -= 1 } }
        return try await $scopedLogger.withValue(logger, operation: operation, isolation: isolation)
    }

    /// Logs through the current logger. Below its level nothing is evaluated and no logger is copied.
    public static func log(
        _ level: LogLevel, _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        let mayPass = state.withLock { level >= $0.threshold || $0.activeScopes > 0 }
        guard mayPass else { return }
        logger.log(level, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }
}
