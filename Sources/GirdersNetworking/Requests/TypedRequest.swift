#if canImport(FoundationNetworking)
public import Foundation
public import FoundationNetworking
#else
public import Foundation
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
    /// `Failure`); `Never` by default: no body is decoded and status errors stay as they are.
    associatedtype Failure: Error & Decodable & Sendable = Never

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
    /// the client's response handlers (JSON for a `Decodable` type); `nil` when ``Failure`` is `Never`, the body
    /// is empty or it does not decode, and the status error is thrown as it was.
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
        guard Failure.self != Never.self, !response.body.isEmpty else { return nil }
        return (try? handlers.decode(response, as: Failure.self)) ?? nil
    }
}

extension HTTP {
    /// Sends a typed request and returns its decoded ``TypedRequest/Success``; an empty body is
    /// ``ResponseError/emptyBody(_:)``, and a rejected status whose body decodes as the request's
    /// ``DeclaredRequest/Failure`` is ``ResponseError/rejected(_:)``.
    public func send<Typed: TypedRequest>(_ typed: Typed) async throws(ResponseError) -> Typed.Success {
        let raw = try await perform(declared: typed)
        guard let value = try responseHandlers.decode(raw, as: Typed.Success.self) else { throw .emptyBody(raw) }
        return value
    }

    /// Sends a request that must succeed without a body; a body is a ``ResponseError/decodingFailed(_:)``
    /// naming its size. (danielbyon/Requests had this check inverted.)
    public func send<NoContent: NoContentRequest>(_ typed: NoContent) async throws(ResponseError) {
        let raw = try await perform(declared: typed)
        guard raw.body.isEmpty else {
            throw .decodingFailed(
                DecodingFailure(
                    type: "\(NoContent.self)", codingPath: "(root)",
                    reason: "expected no content, got \(raw.body.count) bytes", response: raw))
        }
    }

    /// ``send(_:)-(TypedRequest)`` with a completion handler (danielbyon/Requests' `addRequest(_:completion:)`):
    /// `completion` runs exactly once, on `queue`, with the value or the error. Cancelling the returned handle
    /// cancels the transfer; the completion then receives ``ResponseError/cancelled(url:)``.
    @discardableResult
    public func send<Typed: TypedRequest>(
        _ typed: Typed, queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<Typed.Success, ResponseError>) -> Void
    ) -> RequestHandle {
        RequestHandle(queue: queue, completion: completion) { () async throws(ResponseError) in
            try await self.send(typed)
        }
    }

    /// ``send(_:)-(NoContentRequest)`` with a completion handler that runs exactly once, on `queue`.
    @discardableResult
    public func send<NoContent: NoContentRequest>(
        _ typed: NoContent, queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<Void, ResponseError>) -> Void
    ) -> RequestHandle {
        RequestHandle(queue: queue, completion: completion) { () async throws(ResponseError) in
            try await self.send(typed)
        }
    }

    /// The request's edits and rejection codes applied, sent, and a rejected status turned into its failure body.
    private func perform<Declared: DeclaredRequest>(declared: Declared) async throws(ResponseError) -> HTTPResponse {
        var mutable = MutableRequest(declared.request)
        mutable.urlRequestEdits.append(URLRequestEdit(declared.editRequest))
        if let ranges = declared.rejectionCodes {
            mutable.acceptableStatusCodes = ResponseValidation.statusCodes(rejecting: ranges)
        }
        do {
            return try await perform(Self.edited(Request(mutable), declared.editComponents))
        } catch {
            guard let response = error.rejectedResponse,
                let failure = declared.decodeFailure(from: response, handlers: responseHandlers)
            else { throw error }
            throw .rejected(FailureBody(failure, response: response))
        }
    }

    private static func edited(_ request: Request, _ edit: (inout URLComponents) -> Void) -> Request {
        guard var components = URLComponents(url: request.fullURL, resolvingAgainstBaseURL: true) else {
            return request
        }
        let before = components
        edit(&components)
        guard components != before else { return request }
        guard let url = components.url else {
            var failed = MutableRequest(request)
            failed.fail("editComponents produced an invalid URL from \(request.fullURL.absoluteString)")
            return Request(failed)
        }
        var mutable = MutableRequest(request)
        mutable.url = url
        mutable.queryItems = []
        return Request(mutable)
    }
}
