/// The small protocol other modules read settings through, so they never depend on ``Configuration`` itself.
///
/// Conformers implement ``lookup(_:)`` and ``layerNames``; the typed reads come from extensions, each in three
/// forms: optional (`nil` when the key is missing or holds another type), with a default, and required (throws
/// a ``ConfigurationError`` naming the key, the expected and actual type, and the file).
///
/// ```swift
/// func makeClient(settings: some ConfigurationReading) throws -> Client {
///     Client(baseURL: try settings.requiredURL(forKey: "baseURL"),
///            timeout: settings.double(forKey: "api.timeout", default: 30))
/// }
/// ```
public protocol ConfigurationReading: Sendable {
    /// The value at a key path and where it came from, or `nil`.
    func lookup(_ key: String) -> ConfigurationLookup?

    /// The sources searched, highest priority first, for error messages.
    var layerNames: [String] { get }
}

extension ConfigurationReading {
    /// The value at `key` converted to `Value`, or `nil` when it is missing or cannot be converted exactly.
    public func value<Value: ConfigValueConvertible>(forKey key: String, as type: Value.Type = Value.self) -> Value? {
        guard let found = lookup(key),
            case .converted(let value) = Value.convert(found.value, parsingText: found.parsesText)
        else { return nil }
        return value
    }

    /// The value at `key` converted to `Value`, or `defaultValue` when it is missing or cannot be converted.
    public func value<Value: ConfigValueConvertible>(forKey key: String, default defaultValue: Value) -> Value {
        value(forKey: key, as: Value.self) ?? defaultValue
    }

    /// The value at `key` converted to `Value`.
    /// - Throws: ``ConfigurationError/missingKey(key:layers:)``, ``ConfigurationError/typeMismatch(key:expected:actual:source:)``
    ///   or ``ConfigurationError/lossyConversion(key:value:expected:source:)``.
    public func requiredValue<Value: ConfigValueConvertible>(
        forKey key: String, as type: Value.Type = Value.self
    ) throws(ConfigurationError) -> Value {
        guard let found = lookup(key) else { throw .missingKey(key: key, layers: layerNames) }
        switch Value.convert(found.value, parsingText: found.parsesText) {
        case .converted(let value):
            return value
        case .typeMismatch:
            throw .typeMismatch(
                key: key, expected: Value.configTypeName, actual: found.value.typeName,
                source: found.source.description)
        case .lossy:
            throw .lossyConversion(
                key: key, value: found.value.description, expected: Value.configTypeName,
                source: found.source.description)
        }
    }

    /// Decodes the subtree at `key`, or returns `nil` when the key is missing.
    /// - Throws: ``ConfigurationError/decodingFailed(key:type:reason:source:)`` with the coding path when the
    ///   subtree does not fit `type`.
    public func decode<Value: Decodable>(_ type: Value.Type, forKey key: String) throws(ConfigurationError) -> Value? {
        guard let found = lookup(key) else { return nil }
        return try ConfigValueDecoding.decode(type, from: found.value, key: key, source: found.source.description)
    }

    /// Decodes the subtree at `key`, or returns `defaultValue` when the key is missing.
    public func decode<Value: Decodable>(
        _ type: Value.Type, forKey key: String, default defaultValue: Value
    ) throws(ConfigurationError) -> Value {
        try decode(type, forKey: key) ?? defaultValue
    }

    /// Decodes the subtree at `key`.
    /// - Throws: ``ConfigurationError/missingKey(key:layers:)`` or ``ConfigurationError/decodingFailed(key:type:reason:source:)``.
    public func requiredDecode<Value: Decodable>(
        _ type: Value.Type, forKey key: String
    ) throws(ConfigurationError)
        -> Value
    {
        guard let value = try decode(type, forKey: key) else { throw .missingKey(key: key, layers: layerNames) }
        return value
    }
}
