#if canImport(FoundationNetworking)
public import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

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
public protocol TypedRequest: Sendable {
    /// The decoded body of a successful response.
    associatedtype Success: Decodable & Sendable

    /// The request to send.
    var request: Request { get }

    /// The last word on the URL before it is sent (DotDotDot's `editComponents`); nothing by default.
    func editComponents(_ components: inout URLComponents)

    /// The last word on the `URLRequest` ``URLSessionTransport`` builds (DotDotDot's `editRequest`); nothing by
    /// default.
    func editRequest(_ request: inout URLRequest)
}

/// A request whose success has no body (204 and the like); a response that carries a body fails.
public protocol NoContentRequest: Sendable {
    /// The request to send.
    var request: Request { get }

    /// The last word on the URL before it is sent; nothing by default.
    func editComponents(_ components: inout URLComponents)

    /// The last word on the `URLRequest` ``URLSessionTransport`` builds; nothing by default.
    func editRequest(_ request: inout URLRequest)
}

extension TypedRequest {
    /// Nothing.
    public func editComponents(_ components: inout URLComponents) {}

    /// Nothing.
    public func editRequest(_ request: inout URLRequest) {}
}

extension NoContentRequest {
    /// Nothing.
    public func editComponents(_ components: inout URLComponents) {}

    /// Nothing.
    public func editRequest(_ request: inout URLRequest) {}
}

extension HTTP {
    /// Sends a typed request and returns its decoded ``TypedRequest/Success``; an empty body is
    /// ``ResponseError/emptyBody(_:)``.
    public func send<Typed: TypedRequest>(_ typed: Typed) async throws(ResponseError) -> Typed.Success {
        let response: Response<Typed.Success> = try await executeRequest(
            request: Self.edited(typed.request, typed.editComponents, typed.editRequest))
        guard let value = response.bodyObject else { throw .emptyBody(response.raw) }
        return value
    }

    /// Sends a request that must succeed without a body; a body is a ``ResponseError/decodingFailed(_:)``
    /// naming its size. (danielbyon/Requests had this check inverted.)
    public func send<NoContent: NoContentRequest>(_ typed: NoContent) async throws(ResponseError) {
        let raw = try await perform(Self.edited(typed.request, typed.editComponents, typed.editRequest))
        guard raw.body.isEmpty else {
            throw .decodingFailed(
                DecodingFailure(
                    type: "\(NoContent.self)", codingPath: "(root)",
                    reason: "expected no content, got \(raw.body.count) bytes", response: raw))
        }
    }

    private static func edited(
        _ request: Request, _ edit: (inout URLComponents) -> Void,
        _ editRequest: @escaping @Sendable (inout URLRequest) -> Void
    ) -> Request {
        var mutable = MutableRequest(request)
        mutable.urlRequestEdits.append(URLRequestEdit(editRequest))
        return edited(Request(mutable), edit)
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
