public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// What ``TypedRequest`` and ``NoContentRequest`` share: the request, the last word on its URL and `URLRequest`,
/// which statuses it rejects, and how it reads its own error type from a rejected response.
///
/// Everything but ``request`` has a default, so a conformance states only what differs:
///
/// ```swift
/// struct APIError: Error, Decodable, Sendable { let message: String }
///
/// struct DeleteItem: NoContentRequest {
///     typealias Failure = APIError          // decoded from the body of a rejected response
///     let id: Int
///     var request: Request { Request(MutableRequest(method: .delete, path: "/items/\(id)")) }
///     var rejectionCodes: [Range<Int>]? { [400..<600] }   // 3xx passes, as DotDotDot's rejection codes
/// }
/// ```
public protocol DeclaredRequest: Sendable {
    /// The error type decoded from the body of a rejected response (DotDotDot's `parseError`, danielbyon/Requests'
    /// `Failure`); ``NoFailureBody`` by default: no body is decoded and status errors stay as they are. (`Never` works
    /// too where the platform makes it `Decodable`: macOS 14, iOS 17, tvOS 17, watchOS 10.)
    associatedtype Failure: Error & Decodable & Sendable = NoFailureBody

    /// The request to send.
    var request: Request { get }

    /// The statuses this request rejects (DotDotDot's `rejectionCodes`); every other three-digit status is
    /// success. `nil` (the default) keeps the client's ``ResponseValidation``.
    var rejectionCodes: [Range<Int>]? { get }

    /// The last word on the URL before it is sent (DotDotDot's `editComponents`); nothing by default.
    func editComponents(_ components: inout URLComponents)

    /// The last word on the `URLRequest` ``URLSessionTransport`` builds (DotDotDot's `editRequest`); nothing by
    /// default.
    func editRequest(_ request: inout URLRequest)

    /// The request's own error read from a rejected response. By default the body is decoded as ``Failure`` with
    /// the client's response handlers (JSON for a `Decodable` type); `nil` when ``Failure`` is ``NoFailureBody`` or
    /// `Never`, the body is empty or it does not decode, and the status error is thrown as it was.
    func decodeFailure(from response: HTTPResponse, handlers: ResponseHandlerChain) -> Failure?
}

/// A request that declares what it returns: `client.send(GetUser(id: 7))` gives a `User`.
///
/// ```swift
/// struct GetUser: TypedRequest {
///     typealias Success = User
///     let id: Int
///     var request: Request { Request(URL: api.appendingPathComponent("users/\(id)"), method: .get) }
/// }
/// let user = try await client.send(GetUser(id: 7))
/// ```
///
/// See ``DeclaredRequest`` for rejection codes and a typed error body.
public protocol TypedRequest: DeclaredRequest {
    /// The decoded body of a successful response.
    associatedtype Success: Decodable & Sendable
}

/// A request whose success has no body (204 and the like); a response that carries a body fails.
public protocol NoContentRequest: DeclaredRequest {}

extension DeclaredRequest {
    /// `nil`: the client's validation.
    public var rejectionCodes: [Range<Int>]? { nil }

    /// Nothing.
    public func editComponents(_ components: inout URLComponents) {}

    /// Nothing.
    public func editRequest(_ request: inout URLRequest) {}

    /// The body decoded as ``Failure`` by `handlers`, or `nil`.
    public func decodeFailure(from response: HTTPResponse, handlers: ResponseHandlerChain) -> Failure? {
        guard Failure.self != NoFailureBody.self, Failure.self != Never.self, !response.body.isEmpty else { return nil }
        return (try? handlers.decode(response, as: Failure.self)) ?? nil
    }
}
