public import Foundation

/// A body-less result type: any body is ignored. Use `Response<EmptyResponse>` for calls that return nothing.
public struct EmptyResponse: Sendable, Equatable, Decodable {
    /// The empty value.
    public init() {}
}

/// Produces ``EmptyResponse`` for any response.
public struct EmptyResponseHandler: ResponseHandler {
    /// The handler.
    public init() {}

    /// ``EmptyResponse`` when asked for it.
    public func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
        guard T.self == EmptyResponse.self else { return .notHandled }
        return .handled(EmptyResponse() as? T)
    }
}

/// Produces the body bytes as `Data`.
public struct DataHandler: ResponseHandler {
    /// The handler.
    public init() {}

    /// The body when `Data` is asked for.
    public func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
        guard T.self == Data.self else { return .notHandled }
        return .handled(response.body as? T)
    }
}

/// Produces the body as a `String` in the `Content-Type`'s charset (UTF-8 when none is given).
public struct StringHandler: ResponseHandler {
    /// The handler.
    public init() {}

    /// The body as text when `String` is asked for; bytes invalid in the charset are a decoding failure.
    public func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
        guard T.self == String.self else { return .notHandled }
        let encoding: String.Encoding =
            switch response.charset {
            case "iso-8859-1", "latin1", "latin-1": .isoLatin1
            case "utf-16": .utf16
            case "us-ascii", "ascii": .ascii
            default: .utf8
            }
        guard let text = String(data: response.body, encoding: encoding) else {
            throw .decodingFailed(
                DecodingFailure(
                    type: "String", codingPath: "(root)", reason: "the body is not valid \(encoding)",
                    response: response))
        }
        return .handled(text as? T)
    }
}

/// Accepts an empty body as `nil` for 204, 205 and `HEAD`, and, opted in, for an empty 200.
public struct EmptyBodyHandler: ResponseHandler {
    /// Whether an empty 200 also counts as an allowed empty body.
    public let allowsEmpty200: Bool

    /// The handler; an empty 200 is an ``ResponseError/emptyBody(_:)`` unless `allowsEmpty200`.
    public init(allowsEmpty200: Bool = false) {
        self.allowsEmpty200 = allowsEmpty200
    }

    /// `nil` for allowed empty bodies; declines everything else.
    public func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
        let noContent = response.statusCode == 204 || response.statusCode == 205 || response.request.method == .head
        if noContent || (allowsEmpty200 && response.statusCode == 200 && response.body.isEmpty) {
            return .handled(nil)
        }
        return .notHandled
    }
}

/// Produces `JSONSerialization` values: `[String: Any]` objects, `[Any]` and `[[String: Any]]` arrays, or `Any`.
/// GirdersSwift's JSON handler could not parse arrays; this one can.
public struct JSONHandler: ResponseHandler {
    /// The handler.
    public init() {}

    /// The parsed JSON when a JSON container type is asked for.
    public func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
        guard
            T.self == [String: Any].self || T.self == [Any].self || T.self == [[String: Any]].self
                || T.self == Any.self
        else { return .notHandled }
        guard !response.body.isEmpty else { throw .emptyBody(response) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
        } catch {
            throw .decodingFailed(
                DecodingFailure(
                    type: "\(T.self)", codingPath: "(root)", reason: "malformed JSON: \(error.localizedDescription)",
                    response: response))
        }
        guard let value = object as? T else {
            throw .decodingFailed(
                DecodingFailure(
                    type: "\(T.self)", codingPath: "(root)", reason: "the JSON is a \(Swift.type(of: object))",
                    response: response))
        }
        return .handled(value)
    }
}

/// Produces any `Decodable` type with a `JSONDecoder` (by default `JSONDecoder.girders()`).
public struct DecodableHandler: ResponseHandler {
    private let makeDecoder: @Sendable () -> JSONDecoder

    /// The handler with a decoder factory: `DecodableHandler { let d = JSONDecoder(); ...; return d }`.
    public init(decoder: @escaping @Sendable () -> JSONDecoder = JSONDecoder.girders) {
        self.makeDecoder = decoder
    }

    /// The decoded value when `T` is `Decodable`; failures carry the coding path and the start of the body.
    public func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
        guard let decodable = T.self as? any Decodable.Type else { return .notHandled }
        guard !response.body.isEmpty else { throw .emptyBody(response) }
        do {
            return .handled(try makeDecoder().decode(decodable, from: response.body) as? T)
        } catch {
            throw .decodingFailed(DecodingFailure(type: T.self, error: error, response: response))
        }
    }
}
