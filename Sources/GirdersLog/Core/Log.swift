import GirdersSupport

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
    /// The process-wide logger and the number of active scopes. Every change updates ``gate`` under the lock.
    struct State {
        var logger: Logger
        var activeScopes: Int

        /// While any scope is active, a scoped logger may want lines the process-wide one drops.
        var lowestPassingLevel: LogLevel {
            activeScopes > 0 ? .verbose : max(logger.level, logger.destinationLevel)
        }
    }

    static let gate = LevelGate(LogLevel.legacyDefault)

    static let state = LockedState(
        State(
            logger: Logger(
                label: "girders", destination: ConsoleDestination(stream: .standardError),
                level: LogLevel.legacyDefault),
            activeScopes: 0))

    /// Changes the shared state and republishes the gate, atomically with respect to other changes.
    static func update(_ change: (inout State) -> Void) {
        state.withLock { shared in
            change(&shared)
            gate.set(shared.lowestPassingLevel)
        }
    }

    @TaskLocal static var scopedLogger: Logger?

    /// The logger the facade forwards to: a scoped one inside ``withLogger(_:operation:)-(_,()->Result)``, else
    /// the process-wide one. Setting it replaces the process-wide logger for every thread at once.
    ///
    /// By default it writes to standard error at ``LogLevel/legacyDefault`` (warning).
    public static var logger: Logger {
        get { scopedLogger ?? state.withLock { $0.logger } }
        set { update { $0.logger = newValue } }
    }

    /// The process-wide logger's own minimum level.
    public static var level: LogLevel {
        get { state.withLock { $0.logger.level } }
        set { update { $0.logger.level = newValue } }
    }

    /// Sets ``level`` from a configuration value as GirdersSwift read it (`logLevel`: 0...5, or a name).
    ///
    /// A missing value (`nil`) sets warning, as before; anything unreadable throws and leaves the level alone.
    public static func configureLevel(fromConfigurationValue value: Any?, key: String = "logLevel") throws {
        level = try LogLevel(configurationValue: value, key: key)
    }

    /// Runs `operation` with `logger` as the facade's logger, in this task and the tasks it starts.
    public static func withLogger<Result>(_ logger: Logger, operation: () throws -> Result) rethrows -> Result {
        update { $0.activeScopes += 1 }
        defer { update { $0.activeScopes -= 1 } }
        return try $scopedLogger.withValue(logger, operation: operation)
    }

    /// Runs `operation` with `logger` as the facade's logger, in this task and the tasks it starts.
    public static func withLogger<Result>(
        _ logger: Logger, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
    ) async rethrows -> Result {
        update { $0.activeScopes += 1 }
        defer { update { $0.activeScopes -= 1 } }
        return try await $scopedLogger.withValue(logger, operation: operation, isolation: isolation)
    }

    /// Logs through the current logger. Below its level nothing is evaluated and no logger is copied.
    public static func log(
        _ level: LogLevel, _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> LogMetadata? = nil,
        fileID: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        guard gate.allows(level) else { return }
        logger.log(level, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }
}
