public import Foundation
import GirdersSupport

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A request as a transport sends it: lowered from a ``Request`` once, by ``HTTPClient``, for one attempt.
///
/// Lowering checks everything a transport would otherwise check again (a request that could not be built, a URL
/// that is not `http` or `https` with a host, a method that is not a token, limits that cannot be used, pins that
/// are not digests, a body with `GET`), applies the defaults (the 60-second timeout, the client's
/// ``ResponseLimits``) and the request's ``URLRequestEdit``s, so every transport sends the same thing and none
/// decides anything twice. What it holds is final: every field line in order (repeated names stay apart), the
/// exact timeout.
///
/// A transport reads it; a transport that wraps another may change header fields with ``settingHeader(_:_:)``,
/// which checks them as lowering did.
public struct WireRequest: Sendable {
    /// The request this was lowered from, for stubs, logs and the ``HTTPResponse`` it produces.
    public let request: Request
    /// The absolute URL, query included.
    public let url: URL
    /// The method, a token (`GET`, `POST`, or any other a ``URLRequestEdit`` set).
    public let method: String
    /// The header fields, in order; each name a token, no value with CR, LF or NUL.
    public private(set) var headers: HTTPHeaders
    /// What follows the head.
    public let body: Body
    /// The time allowed without progress, in seconds: positive and at most a year.
    public private(set) var timeout: TimeInterval
    /// How much of the response may be held.
    public let limits: ResponseLimits
    /// TLS trust anchors, client identity and public-key pins, if any.
    public let tlsCredentials: TLSCredentials?
    /// `URLRequest` properties a ``URLRequestEdit`` changed beyond the URL, method, header fields, body and
    /// timeout (their names, for errors), with the edited request that carries them: ``URLSessionTransport``
    /// starts from it, ``CurlTransport`` refuses the request rather than ignore them.
    public let otherEdits: (names: [String], edited: URLRequest)?

    /// A request's body on the wire.
    public enum Body: Sendable {
        /// No body.
        case none
        /// Bytes from memory.
        case data(Data)
        /// A file, or multipart form data, streamed from disk (``BodySource``).
        case source(BodySource)
        /// Chunks produced while the request is sent.
        case stream(BodyStream)

        /// The number of bytes, when known before sending.
        public var length: Int64? {
            switch self {
            case .none: 0
            case .data(let data): Int64(data.count)
            case .source(let source): source.length
            case .stream(let stream): stream.length
            }
        }

        /// The bytes from memory, if that is where they are.
        public var data: Data? {
            if case .data(let data) = self { data } else { nil }
        }
    }

    /// The time allowed without progress when the request names none: URLSession's default.
    public static let defaultTimeout: TimeInterval = 60

    /// `request` lowered for sending, with `clientLimits` where it sets none of its own and the `Cookie` field from
    /// `cookies` (unless the request has its own); or why it cannot be sent.
    public init(
        lowering request: Request, clientLimits: ResponseLimits = .standard, cookies: (any CookieJar)? = nil
    ) throws(ResponseError) {
        if let reason = request.failureReason { throw .invalidRequest(reason: reason) }
        let url = request.fullURL
        try Self.checkTarget(url: url, method: request.method.rawValue, edited: false)
        let limits = request.responseLimits ?? clientLimits
        if let problem = limits.problem { throw .invalidRequest(reason: problem) }
        if let pins = request.tlsCredentials?.publicKeyPins, !pins.isEmpty { _ = try PublicKeyPinning.digests(pins) }
        let body = try Self.body(of: request)
        if request.method == .get, body.length != 0 {
            // URLSession refuses it on every platform, with a misleading "resource exceeds maximum size".
            throw .invalidRequest(reason: "cannot send a body with GET \(url.absoluteString)")
        }
        let plain = WireRequest(
            request: request, url: url, method: request.method.rawValue, headers: request.headers, body: body,
            timeout: try RequestTime.timeout(of: request), limits: limits, tlsCredentials: request.tlsCredentials,
            otherEdits: nil)
        var lowered = request.urlRequestEdits.isEmpty ? plain : try plain.applying(request.urlRequestEdits)
        if lowered.timeout.isNaN || lowered.timeout <= 0 {  // an edit's own timeout
            throw .invalidRequest(reason: "the timeout must be a positive number of seconds, not \(lowered.timeout)")
        }
        lowered.timeout = min(lowered.timeout, RequestTime.longest)
        if request.storage.readsSessionCookie, let cookies {
            try lowered.addSessionHeaders(from: cookies)
        }
        if lowered.headers["Cookie"] == nil, let field = try CookieJars.requestField(for: lowered.url, from: cookies) {
            lowered.headers["Cookie"] = field
        }
        self = lowered
    }

    /// The request that `response` answers, as a sink needs it to take the response whole (from a client or a
    /// transport that has whole responses): its URL, method and limits, nothing checked.
    static func answered(by response: HTTPResponse) -> WireRequest {
        let request = response.request
        return WireRequest(
            request: request, url: response.url ?? request.fullURL, method: request.method.rawValue,
            headers: request.headers, body: .none, timeout: WireRequest.defaultTimeout,
            limits: request.responseLimits ?? .standard, tlsCredentials: nil, otherEdits: nil)
    }

    /// The session headers ``withSessionCookie(_:)`` asks for, from `jar`'s `XSRF-TOKEN` and `JSESSIONID` for
    /// ``url``, checked as every field is (a jar of the app's own cannot inject a line).
    private mutating func addSessionHeaders(from jar: any CookieJar) throws(ResponseError) {
        let stored = jar.cookies(for: url)
        let xsrf = stored.first { $0.name == "XSRF-TOKEN" }?.value
        let session = stored.first { $0.name == "JSESSIONID" }?.value
        if let problem = headers.addSessionHeaders(xsrfToken: xsrf, sessionID: session)
            ?? HeaderValidation.problem(in: headers)
        {
            throw .invalidRequest(reason: "the cookie jar's session cookie for \(url.host ?? "the host"): " + problem)
        }
    }

    /// A lowered request with every part given (``applying(_:)`` makes them).
    init(
        request: Request, url: URL, method: String, headers: HTTPHeaders, body: Body, timeout: TimeInterval,
        limits: ResponseLimits, tlsCredentials: TLSCredentials?, otherEdits: (names: [String], edited: URLRequest)?
    ) {
        self.request = request
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.limits = limits
        self.tlsCredentials = tlsCredentials
        self.otherEdits = otherEdits
    }

    /// A copy with the field `name` set to `value` (replacing every line of that name; `nil` removes them),
    /// checked as lowering checks fields: for transports that wrap another (conditional requests, signatures).
    public func settingHeader(_ name: String, _ value: String?) throws(ResponseError) -> WireRequest {
        var copy = self
        copy.headers[name] = value
        if let problem = HeaderValidation.problem(in: copy.headers) { throw .invalidRequest(reason: problem) }
        return copy
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
        guard !method.isEmpty, HTTPCharacters.isToken(method.utf8) else {
            throw .invalidRequest(
                reason: after + "the method \(method.debugDescription) is not a token of letters, digits and "
                    + "!#$%&'*+-.^_`|~")
        }
    }

    private static func body(of request: Request) throws(ResponseError) -> Body {
        if case .stream(let stream) = request.bodySource {
            guard !stream.isSpent else { throw BodyStream.spent(request.method.rawValue, request.fullURL) }
            return .stream(stream)
        }
        if let source = request.bodySource { return .source(source) }
        if let data = request.body, !data.isEmpty { return .data(data) }
        return .none
    }

    /// Whether a body follows the response head: not for `HEAD`, `1xx`, `204` or `304` (RFC 9110, section 6.4.1),
    /// whatever `Content-Length` says.
    func bodyFollows(status: Int) -> Bool {
        method != "HEAD" && status != 204 && status != 304 && !(100..<200).contains(status)
    }
}
