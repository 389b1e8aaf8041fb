/// Every error GirdersLog reports. Each case carries the input that caused it.
public enum LogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A level name that is not one of the known names or numbers.
    case invalidLevel(String)
    /// A legacy numeric level outside `0...5`.
    case levelOutOfRange(Int)
    /// A configuration value that is neither a number nor a level name.
    case invalidConfigurationValue(key: String, value: String)
    /// The log file could not be created or opened for appending.
    case cannotOpenFile(path: String, reason: String)
    /// The folder for the log file could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// Rotation settings that cannot work, such as a maximum size of zero.
    case invalidRotation(String)

    /// A sentence that names the problem and the value involved.
    public var description: String {
        switch self {
        case .invalidLevel(let text):
            "Invalid log level \"\(text)\": expected one of verbose, debug, info, warning, error, fatal or 0...5"
        case .levelOutOfRange(let value):
            "Invalid log level \(value): legacy levels are 0 (verbose) ... 5 (fatal)"
        case .invalidConfigurationValue(let key, let value):
            "Invalid log level for configuration key \"\(key)\": \(value) is neither a number 0...5 nor a level name"
        case .cannotOpenFile(let path, let reason):
            "Cannot open log file \(path): \(reason)"
        case .cannotCreateDirectory(let path, let reason):
            "Cannot create log folder \(path): \(reason)"
        case .invalidRotation(let reason):
            "Invalid log rotation: \(reason)"
        }
    }
}
