public import Foundation

/// What a handler made of a response.
public enum HandlerOutcome<T> {
    /// The handler produced the value; `nil` means an empty body that is allowed (204, 205, `HEAD`, ...).
    case handled(T?)
    /// The handler does not produce `T`; the chain asks the next one.
    case notHandled
}

/// Turns a raw response into the type a call asks for, or declines so the next handler in the chain can.
///
/// ```swift
/// struct CSVHandler: ResponseHandler {
///     func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
///         guard T.self == [[String]].self else { return .notHandled }
///         let rows = String(decoding: response.body, as: UTF8.self)
///             .split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
///         return .handled(rows as? T)
///     }
/// }
/// ```
public protocol ResponseHandler: Sendable {
    /// Decodes `response` as `T`, declines with ``HandlerOutcome/notHandled``, or throws a ``ResponseError``
    /// (usually ``ResponseError/decodingFailed(_:)``).
    func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T>
}

/// Handlers asked in order; the first that handles the type wins.
public struct ResponseHandlerChain: Sendable {
    /// The handlers, in the order they are asked.
    public var handlers: [any ResponseHandler]

    /// A chain of handlers.
    public init(_ handlers: [any ResponseHandler]) {
        self.handlers = handlers
    }

    /// The built-in chain: ``EmptyResponseHandler``, ``DataHandler``, ``StringHandler``, ``EmptyBodyHandler``,
    /// ``JSONHandler``, ``DecodableHandler`` (dates as RFC 3339).
    public static let standard = ResponseHandlerChain.standard()

    /// The built-in chain with a decoder of your own, optionally accepting an empty 200 as a `nil` body.
    public static func standard(
        decoder: @escaping @Sendable () -> JSONDecoder = JSONDecoder.girders, allowsEmpty200: Bool = false
    ) -> ResponseHandlerChain {
        ResponseHandlerChain([
            EmptyResponseHandler(), DataHandler(), StringHandler(), EmptyBodyHandler(allowsEmpty200: allowsEmpty200),
            JSONHandler(), DecodableHandler(decoder: decoder),
        ])
    }

    /// Inserts `handler` before the others.
    public func prepending(_ handler: any ResponseHandler) -> ResponseHandlerChain {
        ResponseHandlerChain([handler] + handlers)
    }

    /// The decoded body, `nil` for an allowed empty body, or ``ResponseError/noHandler(type:_:)``.
    public func decode<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> T? {
        for handler in handlers {
            if case .handled(let value) = try handler.handle(response, as: type) { return value }
        }
        throw .noHandler(type: "\(T.self)", response)
    }
}

extension JSONDecoder {
    /// A `JSONDecoder` whose dates are RFC 3339 strings, read with ``RFC3339Date/parse(_:acceptingGirdersSwiftForms:)`` (0 to 9 fraction
    /// digits, `Z` or offsets); a date in another form fails with the coding path.
    @Sendable public static func girders() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339Date.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an RFC 3339 date")
            }
            return date
        }
        return decoder
    }
}
