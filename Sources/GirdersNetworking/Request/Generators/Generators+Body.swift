public import Foundation

// Generator functions that set the request body. Each sets `Content-Type` to match.

/// Encodes `value` as the JSON body with `Content-Type: application/json`; an encoding failure is recorded in
/// the request (see ``MutableRequest/fail(_:)``) with the coding path. The default encoder,
/// `JSONEncoder.girders()`, sorts keys and writes dates as RFC 3339 with milliseconds.
public func withJSONBody<Value: Encodable>(
    _ value: Value, encoder: JSONEncoder = .girders()
) -> RequestTransform {
    let encoded: Result<Data, ResponseError>
    do {
        encoded = .success(try encoder.encode(value))
    } catch {
        encoded = .failure(.invalidRequest(reason: "cannot encode \(Value.self) as JSON: \(describe(error))"))
    }
    return { (request: consuming MutableRequest) in request.settingBody(encoded, contentType: "application/json") }
}

/// Serialises a GirdersSwift-style parameter dictionary as the JSON body (keys sorted) with
/// `Content-Type: application/json`; a value that is not JSON is recorded as a failure, never a crash.
public func withJSONBody(dictionary: [String: Any]) -> RequestTransform {
    let encoded: Result<Data, ResponseError>
    if JSONSerialization.isValidJSONObject(dictionary),
        let data = try? JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys])
    {
        encoded = .success(data)
    } else {
        let keys = dictionary.keys.sorted().joined(separator: ", ")
        encoded = .failure(.invalidRequest(reason: "the parameters [\(keys)] are not a valid JSON object"))
    }
    return { (request: consuming MutableRequest) in request.settingBody(encoded, contentType: "application/json") }
}

/// Serialises a GirdersSwift-style parameter array as the JSON body with `Content-Type: application/json`; an
/// element that is not JSON is recorded as a failure, never a crash.
public func withJSONBody(array: [Any]) -> RequestTransform {
    let encoded: Result<Data, ResponseError>
    if JSONSerialization.isValidJSONObject(array),
        let data = try? JSONSerialization.data(withJSONObject: array, options: [.sortedKeys])
    {
        encoded = .success(data)
    } else {
        encoded = .failure(.invalidRequest(reason: "the parameter array of \(array.count) elements is not valid JSON"))
    }
    return { (request: consuming MutableRequest) in request.settingBody(encoded, contentType: "application/json") }
}

/// An `application/x-www-form-urlencoded` body from fields in order (repeated names allowed).
public func withFormBody(_ fields: [URLQueryItem]) -> RequestTransform {
    let data = Data(QueryEncoding.encode(fields, spaceAsPlus: true).utf8)
    return { (request: consuming MutableRequest) in
        request.settingBody(.success(data), contentType: "application/x-www-form-urlencoded")
    }
}

/// An `application/x-www-form-urlencoded` body from a dictionary, sorted by name.
public func withFormBody(_ fields: [String: String]) -> RequestTransform {
    withFormBody(fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
}

/// Raw bytes as the body with the given `Content-Type`.
public func withBody(
    _ data: Data, contentType: String = "application/octet-stream"
) -> RequestTransform {
    { (request: consuming MutableRequest) in request.settingBody(.success(data), contentType: contentType) }
}

/// Text as the UTF-8 body, `Content-Type: text/plain; charset=utf-8` unless another type is given.
public func withTextBody(
    _ text: String, contentType: String = "text/plain; charset=utf-8"
) -> RequestTransform {
    withBody(Data(text.utf8), contentType: contentType)
}

extension JSONEncoder {
    /// A `JSONEncoder` with sorted keys (the same value always gives the same bytes) and dates written as RFC 3339
    /// in UTC with milliseconds, the form `JSONDecoder.girders()` reads.
    public static func girders() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339Date.string(from: date, includingMilliseconds: true))
        }
        return encoder
    }
}

extension MutableRequest {
    fileprivate consuming func settingBody(
        _ encoded: Result<Data, ResponseError>, contentType: String
    ) -> MutableRequest {
        switch encoded {
        case .success(let data): setBody(data, contentType: contentType)
        case .failure(let error): fail(error.reason)
        }
        return self
    }
}

/// A short, single-line description of an encoding or decoding error, with the coding path.
func describe(_ error: any Error) -> String {
    func path(_ context: [any CodingKey]) -> String {
        context.isEmpty
            ? "(root)" : context.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case EncodingError.invalidValue(_, let context):
        return "invalid value at \(path(context.codingPath)): \(context.debugDescription)"
    case DecodingError.keyNotFound(let key, let context):
        return "key '\(key.stringValue)' not found at \(path(context.codingPath))"
    case DecodingError.typeMismatch(let type, let context):
        return "expected \(type) at \(path(context.codingPath)): \(context.debugDescription)"
    case DecodingError.valueNotFound(let type, let context):
        return "expected \(type) but found null at \(path(context.codingPath))"
    case DecodingError.dataCorrupted(let context):
        return "corrupted data at \(path(context.codingPath)): \(context.debugDescription)"
    default:
        return "\(error)"
    }
}
