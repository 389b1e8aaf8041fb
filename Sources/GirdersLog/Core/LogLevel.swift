import Foundation

/// The severity of a log line, ordered from the most verbose to the most severe.
///
/// `verbose < debug < info < warning < error < fatal`. A logger or destination with a minimum level drops every
/// line below it. The raw values are GirdersSwift's `logLevel` configuration values (0 is verbose, 5 is fatal).
public enum LogLevel: UInt8, Comparable, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// The most detailed tracing output.
    case verbose = 0
    /// Information useful while developing.
    case debug = 1
    /// Normal, noteworthy events.
    case info = 2
    /// Something unexpected that the program recovered from. The default level when none is configured.
    case warning = 3
    /// An operation failed.
    case error = 4
    /// The program cannot continue as intended. Logging at this level flushes; it never terminates the process.
    case fatal = 5

    /// The level GirdersSwift used when the configuration had no `logLevel` key.
    public static let legacyDefault: LogLevel = .warning

    /// Orders levels by severity.
    @inlinable
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The upper-case name used in log lines, for example `WARNING`.
    public var description: String {
        switch self {
        case .verbose: "VERBOSE"
        case .debug: "DEBUG"
        case .info: "INFO"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .fatal: "FATAL"
        }
    }

    /// Creates a level from GirdersSwift's integer configuration value (0 verbose ... 5 fatal).
    ///
    /// - Throws: ``LogError/levelOutOfRange(_:)`` for any other number.
    public init(legacyValue: Int) throws {
        guard let rawValue = UInt8(exactly: legacyValue), let level = LogLevel(rawValue: rawValue) else {
            throw LogError.levelOutOfRange(legacyValue)
        }
        self = level
    }

    /// Parses a level name case-insensitively (`"warning"`, `"WARN"`, `"Error"`), or a legacy number in text
    /// form (`"3"`). Surrounding white space is ignored.
    ///
    /// Accepted names: `verbose` (`trace`), `debug`, `info`, `warning` (`warn`), `error` (`err`), `fatal`
    /// (`critical`).
    /// - Throws: ``LogError/invalidLevel(_:)`` naming the text for anything else.
    public init(parsing text: String) throws {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        switch name {
        case "verbose", "trace": self = .verbose
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error", "err": self = .error
        case "fatal", "critical": self = .fatal
        default:
            guard let number = Int(name) else { throw LogError.invalidLevel(text) }
            self = try LogLevel(legacyValue: number)
        }
    }

    /// Reads a level from a configuration value as GirdersSwift stored it under the key `logLevel`.
    ///
    /// `nil` (key missing) gives ``legacyDefault``; an integer gives the legacy level; a string is parsed with
    /// ``init(parsing:)``. Anything else is an error, never a silent default.
    /// - Parameters:
    ///   - value: The raw configuration value, for example `Configuration.sharedInstance["logLevel"]`.
    ///   - key: The key the value was read from; it is named in the error.
    public init(configurationValue value: Any?, key: String = "logLevel") throws {
        switch value {
        case nil:
            self = LogLevel.legacyDefault
        case let level as LogLevel:
            self = level
        case let text as String:
            self = try LogLevel(parsing: text)
        case let number as Int:
            self = try LogLevel(legacyValue: number)
        case let number as Double:
            guard let integer = Int(exactly: number) else {
                throw LogError.invalidConfigurationValue(key: key, value: "\(number)")
            }
            self = try LogLevel(legacyValue: integer)
        case let other?:
            throw LogError.invalidConfigurationValue(key: key, value: "\(other)")
        }
    }
}
