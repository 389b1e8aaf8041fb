public import Foundation

// Query and form bodies from an `Encodable` value (Dratini's pattern), with the encoder's key strategy.

/// Appends the top-level properties of `value` to the query, sorted by name: arrays as repeated names, `nil`
/// left out, Booleans as `true`/`false`. Keys follow `encoder`'s `keyEncodingStrategy` (for example
/// `.convertToSnakeCase`) and dates its `dateEncodingStrategy`. A value that is not a flat object (nested objects
/// have no query form) is recorded as a failure naming the property, never sent.
///
/// ```swift
/// struct Search: Encodable { let text: String; let pageSize: Int }
/// let snake = JSONEncoder.girders()
/// snake.keyEncodingStrategy = .convertToSnakeCase
/// request |> withQuery(Search(text: "girders", pageSize: 20), encoder: snake)  // ?page_size=20&text=girders
/// ```
public func withQuery<Value: Encodable>(_ value: Value, encoder: JSONEncoder = .girders()) -> RequestTransform {
    let items = EncodableFields.items(of: value, encoder: encoder)
    return { (request: consuming MutableRequest) in
        switch items {
        case .success(let items): request.queryItems += items
        case .failure(let error): request.fail(error.message)
        }
        return request
    }
}

/// An `application/x-www-form-urlencoded` body from the top-level properties of `value`, with the same rules as
/// ``withQuery(_:encoder:)``.
public func withFormBody<Value: Encodable>(_ value: Value, encoder: JSONEncoder = .girders()) -> RequestTransform {
    switch EncodableFields.items(of: value, encoder: encoder) {
    case .success(let items): return withFormBody(items)
    case .failure(let error):
        return { (request: consuming MutableRequest) in
            request.fail(error.message)
            return request
        }
    }
}

/// The flat name-value fields of an `Encodable` value, read back from its JSON form with `JSONDecoder` (which
/// tells Booleans from numbers the same way on every platform).
enum EncodableFields {
    /// Why a value has no fields.
    struct Failure: Error {
        let message: String
    }

    static func items<Value: Encodable>(of value: Value, encoder: JSONEncoder) -> Result<[URLQueryItem], Failure> {
        let fields: [String: Field]
        do {
            let data = try encoder.encode(value)
            guard let object = try? JSONDecoder().decode([String: Field].self, from: data) else {
                return .failure(
                    Failure(
                        message: "\(Value.self) has no query or form encoding: only an object whose fields are "
                            + "strings, numbers, Booleans, null or arrays of them has one"))
            }
            fields = object
        } catch {
            return .failure(Failure(message: "cannot encode \(Value.self) as fields: \(error)"))
        }
        var items: [URLQueryItem] = []
        for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
            for text in field.texts { items.append(URLQueryItem(name: name, value: text)) }
        }
        return .success(items)
    }

    /// One field: a scalar, `null`, or an array of those.
    enum Field: Decodable {
        case scalar(String)
        case list([String?])
        case null

        var texts: [String] {
            switch self {
            case .scalar(let text): [text]
            case .list(let texts): texts.compactMap { $0 }
            case .null: []
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let list = try? container.decode([Scalar?].self) {
                self = .list(list.map { $0?.text })
            } else {
                self = .scalar(try container.decode(Scalar.self).text)
            }
        }
    }

    /// A string, a Boolean (`true`/`false`) or a number (as JSON wrote it).
    struct Scalar: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                text = bool ? "true" : "false"
            } else if let integer = try? container.decode(Int64.self) {
                text = String(integer)
            } else if let number = try? container.decode(Double.self) {
                text = "\(number)"
            } else {
                text = try container.decode(String.self)
            }
        }
    }
}
