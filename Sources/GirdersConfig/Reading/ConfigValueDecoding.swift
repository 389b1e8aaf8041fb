import Foundation

/// Decodes `Decodable` types from a configuration subtree through Foundation's property-list decoder, so dates
/// and data keep their types.
enum ConfigValueDecoding {
    static func decode<Value: Decodable>(
        _ type: Value.Type, from value: ConfigValue, key: String, source: String
    ) throws(ConfigurationError) -> Value {
        do {
            let data = try PropertyListSerialization.data(
                fromPropertyList: ["value": value.foundationValue], format: .binary, options: 0)
            return try PropertyListDecoder().decode(Wrapper<Value>.self, from: data).value
        } catch let error as DecodingError {
            throw .decodingFailed(key: key, type: "\(Value.self)", reason: describe(error), source: source)
        } catch {
            throw .decodingFailed(key: key, type: "\(Value.self)", reason: "\(error)", source: source)
        }
    }

    /// Wraps the subtree in a dictionary, because a property list's root should be a container.
    private struct Wrapper<Wrapped: Decodable>: Decodable {
        let value: Wrapped
    }

    /// "at servers.0.port: expected Int, found a string" instead of Foundation's long debug dump.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let components = codingPath.dropFirst().map { $0.intValue.map(String.init) ?? $0.stringValue }
            return components.isEmpty ? "the top level" : components.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "at \(path(context.codingPath)): expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "at \(path(context.codingPath)): missing \(type) value"
        case .keyNotFound(let key, let context):
            return "at \(path(context.codingPath + [key])): missing key \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            return "at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
