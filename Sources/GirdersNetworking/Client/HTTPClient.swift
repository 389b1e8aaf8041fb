public import Foundation
import GirdersLog

/// The ``HTTP`` client: sends ``Request``s through one pipeline and returns typed ``Response``s.
///
/// Every way to send (``HTTP/executeRequest(request:as:)``, its completion-handler form, `send(_:)` for
/// ``TypedRequest``s, `upload`, `download`, ``FluentTask``) runs ``perform(_:options:)``: the ``interceptors`` adapt
/// the request and decide retries, the ``transport`` sends it (``CurlTransport`` on Linux, ``URLSessionTransport``
/// on Apple platforms), redirects are followed under ``redirects``, the final response is checked by
/// ``validation``, and ``responseHandlers`` decode the body.
///
/// - Threading: `HTTPClient` is immutable and `Sendable`; one client can serve any number of concurrent requests.
///   Cancelling the calling `Task` cancels the transfer (``ResponseError/cancelled(url:)``) and deletes a partial
///   download.
/// - Errors: every failure is a ``ResponseError``: a request that could not be built is
///   ``ResponseError/invalidRequest(reason:)`` before anything is sent; an unacceptable status keeps the whole
///   ``HTTPResponse``; transport failures are named (`timedOut`, `cannotConnect`, `interrupted`, ...).
///
/// ```swift
/// let client = HTTPClient()
/// let strict = HTTPClient(validation: ResponseValidation(acceptableContentTypes: ["application/json"]))
/// let custom = HTTPClient(transport: MyTransport(), redirects: .doNotFollow)
/// let api = HTTPClient(baseURL: URL(string: "https://api.example.com/v2")!)  // for MutableRequest(path:)
/// ```
public final class HTTPClient: HTTP {
    /// The URL that requests with a relative URL (``MutableRequest/init(method:path:)``) are appended to, with
    /// exactly one slash between them (Dratini's `RequestQueue(baseURL:)`); absolute URLs are sent as they are.
    /// Without one, a relative request fails with ``ResponseError/invalidRequest(reason:)``.
    public let baseURL: URL?
    /// The transport requests are sent through.
    public let transport: any HTTPTransport
    /// The handlers that decode bodies.
    public let responseHandlers: ResponseHandlerChain
    /// What counts as a successful response.
    public let validation: ResponseValidation
    /// Whether and how far redirects are followed.
    public let redirects: RedirectPolicy
    /// The interceptors every request goes through, in order.
    public let interceptors: [any RequestInterceptor]
    /// The monitors told about every attempt.
    public let monitors: [any EventMonitor]
    /// How much of a response a request may hold (bodies, downloads, heads), unless the request sets its own
    /// (``withResponseLimits(_:)``); see ``ResponseLimits`` for the defaults and why. A limit that cannot be used
    /// (a negative size) fails every request with ``ResponseError/invalidRequest(reason:)``.
    public let responseLimits: ResponseLimits
    /// Where the cookies servers set are kept and where each hop's `Cookie` field comes from (unless the request
    /// has its own), whatever transport and decorators are underneath; ``withSessionCookie(_:)`` reads it too.
    /// ``CookieJars/shared`` by default; `nil` sends and stores none.
    public let cookieJar: (any CookieJar)?

    /// A client; every part has a default.
    public init(
        baseURL: URL? = nil,
        transport: any HTTPTransport = HTTPClient.defaultTransport(),
        responseHandlers: ResponseHandlerChain = .standard,
        validation: ResponseValidation = ResponseValidation(),
        redirects: RedirectPolicy = .follow(),
        interceptors: [any RequestInterceptor] = [],
        monitors: [any EventMonitor] = [],
        responseLimits: ResponseLimits = .standard,
        cookieJar: (any CookieJar)? = CookieJars.shared
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.responseHandlers = responseHandlers
        self.validation = validation
        self.redirects = redirects
        self.interceptors = interceptors
        self.monitors = monitors
        self.responseLimits = responseLimits
        self.cookieJar = cookieJar
    }

    /// A client sharing this one's transport and settings, with `interceptors` after this one's: per-call
    /// interceptors, as in `client.adding(RetryPolicy()).executeRequest(request: request)`.
    public func adding(_ interceptors: any RequestInterceptor...) -> HTTPClient {
        HTTPClient(
            baseURL: baseURL, transport: transport, responseHandlers: responseHandlers, validation: validation,
            redirects: redirects,
            interceptors: self.interceptors + interceptors, monitors: monitors, responseLimits: responseLimits,
            cookieJar: cookieJar)
    }

    /// A new instance of the platform's default transport: ``CurlTransport`` on Linux, ``URLSessionTransport``
    /// elsewhere, and on Linux too when libcurl cannot be loaded (said once per process, as a warning through
    /// GirdersLog's `Log`). What a decorator wraps to add to the default: `HARRecorder(HTTPClient.defaultTransport())`.
    public static func defaultTransport() -> any HTTPTransport {
        #if canImport(CGirdersCurl)
        if !curlIsMissing { return CurlTransport() }
        #endif
        return URLSessionTransport()
    }

    #if canImport(CGirdersCurl)
    /// Whether libcurl is missing, evaluated (and logged) once.
    private static let curlIsMissing = usesFallback(curlFailure: CurlTransport.libraryFailure, logger: Log.logger)

    /// Whether the default transport falls back to URLSessionTransport for `curlFailure`, telling `logger` why.
    static func usesFallback(curlFailure: String?, logger: any LogProtocol) -> Bool {
        guard let curlFailure else { return false }
        logger.log(
            .warning, "HTTPClient uses URLSessionTransport: \(curlFailure)", metadata: nil, fileID: #fileID,
            function: #function, line: #line)
        return true
    }
    #endif

    /// Sends `request` through the interceptors, follows redirects under ``redirects``, validates the final
    /// response and returns it; failed attempts are retried as the interceptors decide.
    public func perform(_ request: Request) async throws(ResponseError) -> HTTPResponse {
        try await perform(request, options: TransferOptions())
    }

    /// The exchange with its body kept: in memory, or for a `2xx` with a download destination in a file moved there
    /// once the final response passed validation; progress is reported for every attempt. Every collected form
    /// (``HTTP/executeRequest(request:as:)``, `send(_:)`, `upload`, `download`, the completion handlers) runs this.
    ///
    /// The exchange, step by step (see the module's README for the map): the request arrives built (a request that
    /// could not be built stops here, a relative URL is resolved against ``baseURL``); the interceptors adapt each
    /// attempt and decide retries; each hop is lowered (``WireRequest``), sent by the ``transport`` into a
    /// ``ResponseSink``, its cookies stored in ``cookieJar``; redirects are followed under ``redirects``; the final response is
    /// checked by ``validation``; ``withDeadline(_:)`` bounds it all.
    public func perform(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse {
        let exchanged = try await exchange(
            request, destination: options.downloadDestination.map { .file($0) } ?? .memory, progress: options.progress)
        return try DownloadFile.place(exchanged.head, at: options.downloadDestination)
    }

    /// The exchange with its body streamed: returns as soon as the head of a successful response arrived, with its
    /// body to read as it arrives (line-delimited JSON, a token stream, a long download processed on the fly).
    ///
    /// Interceptors adapt every attempt and failures before the head are retried as they decide; redirects are
    /// followed; the final head is validated by ``validation`` (a rejected status fails with its whole body, as
    /// ``perform(_:options:)`` does). The body is read once (``ResponseBody``); the transport holds back while the
    /// reader lags. ``withDeadline(_:)`` bounds the whole exchange, body included; ``withTimeout(_:)`` is the time
    /// without progress while the body is read (a paused transfer waiting for its reader is not idle).
    ///
    /// ```swift
    /// let streamed = try await client.stream(Request(URL: tokensURL, method: .get))
    /// for try await chunk in streamed.body { show(chunk) }
    /// ```
    public func stream(
        _ request: Request, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(ResponseError) -> StreamedResponse {
        let exchanged = try await exchange(request, destination: .stream, progress: progress)
        guard let body = exchanged.body else {
            throw .transport(url: request.fullURL, code: 0, reason: "the exchange returned no stream")
        }
        return StreamedResponse(head: exchanged.head, body: body)
    }

    /// `request` with a relative URL appended to ``baseURL``; an absolute one unchanged.
    func resolved(_ request: Request) throws(ResponseError) -> Request {
        guard request.isRelative else { return request }
        guard let baseURL else {
            throw .invalidRequest(
                reason:
                    "the URL \(request.url.relativeString.debugDescription) is relative and the client has no baseURL")
        }
        guard let resolved = request.resolved(against: baseURL) else {
            throw .invalidRequest(reason: "cannot append \(request.url.relativeString.debugDescription) to \(baseURL)")
        }
        return resolved
    }
}

extension HTTPClient {
    /// Sends `request` asking the server to switch protocols (RFC 9110, 7.8; the caller writes `Upgrade` and the
    /// protocol's own fields) and returns the `101` head with the connection. The request runs the whole exchange:
    /// interceptors sign it and refresh a token after a `401` (it is then sent again), the cookie jar adds and
    /// stores cookies, the request's TLS credentials and pins apply, monitors see its ``RequestMetrics``, the
    /// deadline bounds it, and redirects are followed as ``redirects`` allows. `101` is the one status that succeeds.
    ///
    /// - Throws: ``ResponseError`` as a request does (it could not connect; any status other than `101`);
    ///   ``ResponseError/unsupported(feature:)`` when the transport cannot hand a connection over.
    public func upgrade(_ request: Request) async throws(ResponseError) -> Upgrade {
        let asking = request.editing { $0.acceptableStatusCodes = [101] }
        let exchanged = try await exchange(asking, destination: .upgrade, progress: nil)
        guard let connection = exchanged.upgrade else {
            throw .unsupported(
                feature: "switching protocols on \(type(of: transport)), which answered without a connection")
        }
        return Upgrade(response: exchanged.head, connection: connection)
    }
}
