public import Foundation

/// Named typed reads in the style of swift-configuration's `ConfigReader`, each in three forms.
extension ConfigurationReading {
    /// Reads a string; `nil` when missing or of another type.
    public func string(forKey key: String) -> String? { value(forKey: key, as: String.self) }

    /// Reads a string, or `defaultValue`.
    public func string(forKey key: String, default defaultValue: String) -> String {
        value(forKey: key, as: String.self) ?? defaultValue
    }

    /// Reads a string; throws a ``ConfigurationError`` naming the key, types and file.
    public func requiredString(forKey key: String) throws(ConfigurationError) -> String {
        try requiredValue(forKey: key, as: String.self)
    }

    /// Reads an integer (a real without fraction also converts); `nil` when missing or of another type.
    public func int(forKey key: String) -> Int? { value(forKey: key, as: Int.self) }

    /// Reads an integer (a real without fraction also converts), or `defaultValue`.
    public func int(forKey key: String, default defaultValue: Int) -> Int {
        value(forKey: key, as: Int.self) ?? defaultValue
    }

    /// Reads an integer (a real without fraction also converts); throws a ``ConfigurationError`` naming the key, types and file.
    public func requiredInt(forKey key: String) throws(ConfigurationError) -> Int {
        try requiredValue(forKey: key, as: Int.self)
    }

    /// Reads a number; `nil` when missing or of another type.
    public func double(forKey key: String) -> Double? { value(forKey: key, as: Double.self) }

    /// Reads a number, or `defaultValue`.
    public func double(forKey key: String, default defaultValue: Double) -> Double {
        value(forKey: key, as: Double.self) ?? defaultValue
    }

    /// Reads a number; throws a ``ConfigurationError`` naming the key, types and file.
    public func requiredDouble(forKey key: String) throws(ConfigurationError) -> Double {
        try requiredValue(forKey: key, as: Double.self)
    }

    /// Reads a Boolean; `nil` when missing or of another type.
    public func bool(forKey key: String) -> Bool? { value(forKey: key, as: Bool.self) }

    /// Reads a Boolean, or `defaultValue`.
    public func bool(forKey key: String, default defaultValue: Bool) -> Bool {
        value(forKey: key, as: Bool.self) ?? defaultValue
    }

    /// Reads a Boolean; throws a ``ConfigurationError`` naming the key, types and file.
    public func requiredBool(forKey key: String) throws(ConfigurationError) -> Bool {
        try requiredValue(forKey: key, as: Bool.self)
    }

    /// Reads an absolute URL from a string; `nil` when missing or of another type.
    public func url(forKey key: String) -> URL? { value(forKey: key, as: URL.self) }

    /// Reads an absolute URL from a string, or `defaultValue`.
    public func url(forKey key: String, default defaultValue: URL) -> URL {
        value(forKey: key, as: URL.self) ?? defaultValue
    }

    /// Reads an absolute URL from a string; throws a ``ConfigurationError`` naming the key, types and file.
    public func requiredURL(forKey key: String) throws(ConfigurationError) -> URL {
        try requiredValue(forKey: key, as: URL.self)
    }

    /// Reads a date; `nil` when missing or of another type.
    public func date(forKey key: String) -> Date? { value(forKey: key, as: Date.self) }

    /// Reads a date, or `defaultValue`.
    public func date(forKey key: String, default defaultValue: Date) -> Date {
        value(forKey: key, as: Date.self) ?? defaultValue
    }

    /// Reads a date; throws a ``ConfigurationError`` naming the key, types and file.
    public func requiredDate(forKey key: String) throws(ConfigurationError) -> Date {
        try requiredValue(forKey: key, as: Date.self)
    }

    /// Reads data; `nil` when missing or of another type.
    public func data(forKey key: String) -> Data? { value(forKey: key, as: Data.self) }

    /// The `Data` at `key` (a `<data>` property-list value), or `defaultValue` when it is missing or not data.
    public func data(forKey key: String, default defaultValue: Data) -> Data {
        value(forKey: key, as: Data.self) ?? defaultValue
    }

    /// Reads data; throws a ``ConfigurationError`` naming the key, types and file.
    public func requiredData(forKey key: String) throws(ConfigurationError) -> Data {
        try requiredValue(forKey: key, as: Data.self)
    }

    /// Reads a list of strings; `nil` when missing or when an element is not a string.
    public func stringArray(forKey key: String) -> [String]? { value(forKey: key, as: [String].self) }

    /// Reads a dictionary of raw values; `nil` when missing or not a dictionary.
    public func dictionary(forKey key: String) -> [String: ConfigValue]? {
        value(forKey: key, as: [String: ConfigValue].self)
    }
}
