import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a transport puts on the wire for a ``Request``: the checks every transport makes before sending, and the
/// request's `URLRequest` edits applied, so that every transport sends the same thing.
struct WireRequest {
    /// The absolute URL, query included.
    var url: URL
    /// The method as sent.
    var method: String
    /// The header fields, in order.
    var headers: HTTPHeaders
    /// The body from memory, if any.
    var body: Data?
    /// The time allowed without progress.
    var timeout: TimeInterval

    /// The time allowed without progress when the request names none: URLSession's default.
    static let defaultTimeout: TimeInterval = 60

    /// The checks every transport makes before anything is sent: a request that could not be built, and a body
    /// with `GET`, which URLSession refuses on every platform with a misleading "resource exceeds maximum size".
    static func check(_ request: Request) throws(ResponseError) {
        if let reason = request.failureReason { throw .invalidRequest(reason: reason) }
        let hasBody = !(request.body?.isEmpty ?? true) || request.bodySource != nil
        if request.method == .get, hasBody {
            throw .invalidRequest(reason: "cannot send a body with GET \(request.fullURL.absoluteString)")
        }
    }

    /// The request as sent, or the reason it cannot be: a request that could not be built, or a body with `GET`
    /// (which URLSession refuses on every platform with a misleading "resource exceeds maximum size").
    init(_ request: Request) throws(ResponseError) {
        try Self.check(request)
        url = request.fullURL
        method = request.method.rawValue
        headers = request.headers
        body = request.body
        timeout = request.timeout ?? Self.defaultTimeout
        guard !request.urlRequestEdits.isEmpty else { return }
        let edited = try URLSessionTransport.urlRequest(for: request)
        url = edited.url ?? url
        method = edited.httpMethod ?? method
        headers = HTTPHeaders(
            (edited.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
                .map { HTTPHeader(name: $0.key, value: $0.value) })
        body = edited.httpBody
        timeout = edited.timeoutInterval
    }
}
