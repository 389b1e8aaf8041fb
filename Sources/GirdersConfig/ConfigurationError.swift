/// Every error GirdersConfig reports. Each case names the file, key or environment involved.
public enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A configuration file that must exist does not.
    case fileNotFound(path: String)
    /// A file that exists but cannot be read.
    case unreadableFile(path: String, reason: String)
    /// A file that is not a valid property list; `line` when the parser reported one.
    case malformedPropertyList(path: String, line: Int?, reason: String)
    /// A property list whose root is not a dictionary.
    case rootIsNotADictionary(path: String, actualType: String)
    /// An environment was chosen but its overlay file does not exist.
    case unknownEnvironment(name: String, expectedPath: String, chosenBy: String)
    /// An environment name that cannot name an overlay file (see ``EnvironmentChoice/isValidName(_:)``).
    case invalidEnvironmentName(name: String, chosenBy: String)
    /// A required key is missing from every layer.
    case missingKey(key: String, layers: [String])
    /// A key holds a value of another type than requested.
    case typeMismatch(key: String, expected: String, actual: String, source: String)
    /// A number that cannot be converted without losing information (for example 1.5 read as an `Int`).
    case lossyConversion(key: String, value: String, expected: String, source: String)
    /// A subtree that could not be decoded into a `Decodable` type.
    case decodingFailed(key: String, type: String, reason: String, source: String)
    /// A file whose key paths, each spelled out from the root, add up to more than ``ConfigurationLimits/keyPathBytes``.
    case keyPathsTooLong(path: String, limit: Int)

    /// A sentence that names the problem and where it is.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "Configuration file not found: \(path)"
        case .unreadableFile(let path, let reason):
            "Cannot read configuration file \(path): \(reason)"
        case .malformedPropertyList(let path, let line, let reason):
            "Malformed property list \(path)\(line.map { " at line \($0)" } ?? ""): \(reason)"
        case .rootIsNotADictionary(let path, let actualType):
            "The root of \(path) must be a dictionary, not \(actualType)"
        case .unknownEnvironment(let name, let expectedPath, let chosenBy):
            "Unknown configuration environment \"\(name)\" (chosen by \(chosenBy)): \(expectedPath) does not exist"
        case .invalidEnvironmentName(let name, let chosenBy):
            "Invalid configuration environment \(name.debugDescription) (chosen by \(chosenBy)): use letters, digits, '-', '_' and '.', at most \(EnvironmentChoice.maximumNameLength) characters"
        case .missingKey(let key, let layers):
            "Missing configuration key \"\(key)\" (searched: \(layers.isEmpty ? "no layers" : layers.joined(separator: ", ")))"
        case .typeMismatch(let key, let expected, let actual, let source):
            "Configuration key \"\(key)\" in \(source) is \(actual), expected \(expected)"
        case .lossyConversion(let key, let value, let expected, let source):
            "Configuration key \"\(key)\" in \(source) is \(value), which is not exactly representable as \(expected)"
        case .decodingFailed(let key, let type, let reason, let source):
            "Cannot decode \(type) from configuration key \"\(key)\" in \(source): \(reason)"
        case .keyPathsTooLong(let path, let limit):
            "The key paths of \(path) add up to more than \(limit) bytes (ConfigurationLimits.keyPathBytes): it is nested too deep or its keys are too long"
        }
    }
}
