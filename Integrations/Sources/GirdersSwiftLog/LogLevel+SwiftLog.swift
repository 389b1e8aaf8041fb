public import GirdersLog
public import Logging

extension GirdersLog.LogLevel {
    /// swift-log's level for this one: `verbose` is `trace`, `fatal` is `critical`, the rest keep their names.
    public var swiftLogLevel: Logging.Logger.Level {
        switch self {
        case .verbose: .trace
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        case .fatal: .critical
        }
    }

    /// GirdersLog's level for swift-log's `level`: `trace` is `verbose`, `notice` is `info` (GirdersLog has no
    /// level between info and warning), `critical` is `fatal`.
    public init(_ level: Logging.Logger.Level) {
        switch level {
        case .trace: self = .verbose
        case .debug: self = .debug
        case .info, .notice: self = .info
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .fatal
        }
    }
}
