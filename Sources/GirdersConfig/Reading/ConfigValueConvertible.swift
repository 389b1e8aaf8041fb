public import Foundation

/// The outcome of converting a ``ConfigValue`` to a Swift type.
public enum ConfigConversion<Value> {
    /// Converted exactly.
    case converted(Value)
    /// The value has another type.
    case typeMismatch
    /// The value is a number that the type cannot hold exactly.
    case lossy
}

/// A type a configuration value can be read as. Numbers convert only when lossless; strings are parsed only
/// for layers without types (environment variables).
public protocol ConfigValueConvertible: Sendable {
    /// The name errors print, for example `Int`.
    static var configTypeName: String { get }
    /// Converts `value`; `parsingText` allows parsing strings.
    static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<Self>
}

extension ConfigValue: ConfigValueConvertible {
    /// `ConfigValue`.
    public static var configTypeName: String { "ConfigValue" }
    /// Any value, as it is.
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<ConfigValue> {
        .converted(value)
    }
}

extension String: ConfigValueConvertible {
    /// `String`.
    public static var configTypeName: String { "String" }
    /// Strings only; numbers are not turned into text.
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<String> {
        if case .string(let text) = value { return .converted(text) }
        return .typeMismatch
    }
}

extension Int: ConfigValueConvertible {
    /// `Int`.
    public static var configTypeName: String { "Int" }
    /// Integers, and reals without a fraction.
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<Int> {
        switch value {
        case .integer(let number): return .converted(number)
        case .double(let number): return Int(exactly: number).map { .converted($0) } ?? .lossy
        case .string(let text) where parsingText:
            if let number = Int(text.trimmingCharacters(in: .whitespaces)) { return .converted(number) }
            return Double(text) == nil ? .typeMismatch : .lossy
        default: return .typeMismatch
        }
    }
}

extension Double: ConfigValueConvertible {
    /// `Double`.
    public static var configTypeName: String { "Double" }
    /// Reals, and integers a `Double` holds exactly.
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<Double> {
        switch value {
        case .double(let number): return .converted(number)
        case .integer(let number): return Double(exactly: number).map { .converted($0) } ?? .lossy
        case .string(let text) where parsingText:
            return Double(text.trimmingCharacters(in: .whitespaces)).map { .converted($0) } ?? .typeMismatch
        default: return .typeMismatch
        }
    }
}

extension Bool: ConfigValueConvertible {
    /// `Bool`.
    public static var configTypeName: String { "Bool" }
    /// Booleans; from text `true`/`false`, `yes`/`no`, `1`/`0`.
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<Bool> {
        switch value {
        case .bool(let flag): return .converted(flag)
        case .string(let text) where parsingText:
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "1": return .converted(true)
            case "false", "no", "0": return .converted(false)
            default: return .typeMismatch
            }
        default: return .typeMismatch
        }
    }
}

extension URL: ConfigValueConvertible {
    /// `URL`.
    public static var configTypeName: String { "URL" }
    /// Strings that parse as an absolute URL (with a scheme).
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<URL> {
        guard case .string(let text) = value, let url = URL(string: text), url.scheme != nil else {
            return .typeMismatch
        }
        return .converted(url)
    }
}

extension Date: ConfigValueConvertible {
    /// `Date`.
    public static var configTypeName: String { "Date" }
    /// Dates; from text, ISO 8601 / RFC 3339 (`2026-01-31T12:00:00Z`).
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<Date> {
        switch value {
        case .date(let date): return .converted(date)
        case .string(let text) where parsingText:
            return (try? Date(text, strategy: .iso8601)).map { .converted($0) } ?? .typeMismatch
        default: return .typeMismatch
        }
    }
}

extension Data: ConfigValueConvertible {
    /// `Data`.
    public static var configTypeName: String { "Data" }
    /// Data; from text, Base64.
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<Data> {
        switch value {
        case .data(let data): return .converted(data)
        case .string(let text) where parsingText:
            return Data(base64Encoded: text).map { .converted($0) } ?? .typeMismatch
        default: return .typeMismatch
        }
    }
}

extension Array: ConfigValueConvertible where Element: ConfigValueConvertible {
    /// `Array<Element>`.
    public static var configTypeName: String { "Array<\(Element.configTypeName)>" }
    /// Arrays whose every element converts.
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<[Element]> {
        guard case .array(let values) = value else { return .typeMismatch }
        var converted: [Element] = []
        converted.reserveCapacity(values.count)
        for element in values {
            switch Element.convert(element, parsingText: parsingText) {
            case .converted(let item): converted.append(item)
            case .typeMismatch: return .typeMismatch
            case .lossy: return .lossy
            }
        }
        return .converted(converted)
    }
}

extension Dictionary: ConfigValueConvertible where Key == String, Value: ConfigValueConvertible {
    /// `Dictionary<String, Value>`.
    public static var configTypeName: String { "Dictionary<String, \(Value.configTypeName)>" }
    /// Dictionaries whose every value converts.
    public static func convert(_ value: ConfigValue, parsingText: Bool) -> ConfigConversion<[String: Value]> {
        guard case .dictionary(let values) = value else { return .typeMismatch }
        var converted: [String: Value] = [:]
        converted.reserveCapacity(values.count)
        for (key, element) in values {
            switch Value.convert(element, parsingText: parsingText) {
            case .converted(let item): converted[key] = item
            case .typeMismatch: return .typeMismatch
            case .lossy: return .lossy
            }
        }
        return .converted(converted)
    }
}
