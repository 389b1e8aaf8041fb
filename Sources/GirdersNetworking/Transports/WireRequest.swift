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

    /// The checks every transport makes before anything is sent: a request that could not be built, a URL that is
    /// not `http` or `https` with a host, limits that cannot be used, and a body with `GET`, which URLSession
    /// refuses on every platform with a misleading "resource exceeds maximum size".
    static func check(_ request: Request) throws(ResponseError) {
        if let reason = request.failureReason { throw .invalidRequest(reason: reason) }
        try checkTarget(url: request.fullURL, method: request.method.rawValue, edited: false)
        if let problem = request.responseLimits?.problem { throw .invalidRequest(reason: problem) }
        if let pins = request.tlsCredentials?.publicKeyPins, !pins.isEmpty { _ = try PublicKeyPinning.digests(pins) }
        let hasBody = !(request.body?.isEmpty ?? true) || request.bodySource != nil
        if request.method == .get, hasBody {
            throw .invalidRequest(reason: "cannot send a body with GET \(request.fullURL.absoluteString)")
        }
    }

    /// Refuses a URL that is not `http` or `https` with a host (a `file:` URL would let a request write a local
    /// file, a `gopher:` one send any bytes to any port) and a method that is not a token (a CR or LF in it would
    /// put a second request line on the wire); `edited` says the values come from a ``URLRequestEdit``.
    static func checkTarget(url: URL, method: String, edited: Bool) throws(ResponseError) {
        let after = edited ? "after a URLRequest edit, " : ""
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidRequest(
                reason: after + "the URL \(url.absoluteString.debugDescription) is not http or https; "
                    + "Girders sends nothing else")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalidRequest(reason: after + "the URL \(url.absoluteString.debugDescription) has no host")
        }
        guard !method.isEmpty, method.utf8.allSatisfy(HeaderValidation.isTokenByte) else {
            throw .invalidRequest(
                reason: after + "the method \(method.debugDescription) is not a token of letters, digits and "
                    + "!#$%&'*+-.^_`|~")
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
