public import Foundation

/// An immutable HTTP request: what ``HTTP/executeRequest(request:as:)`` sends.
///
/// Build one from a ``ServiceEndpoint`` (`Request(endpoint:)`), from GirdersSwift's
/// `Request(URL:method:parameters:queryParameters:requestGenerator:)`, or from a ``MutableRequest`` piped through
/// generator functions:
///
/// ```swift
/// let request = Request(
///     MutableRequest(method: .post, url: URL(string: "https://api.example.com/items")!)
///         |> withJsonSupport
///         |> withJSONBody(NewItem(name: "girder"))
///         |> withBearerToken(token))
/// ```
///
/// Building never crashes and never throws: a problem (a missing base URL, a value that is not JSON, a
/// missing credential, a header name that is not a token, a header value with CR, LF or NUL, a dot segment in an
/// endpoint's path) is kept in ``failureReason``, and executing the request fails with
/// ``ResponseError/invalidRequest(reason:)`` before anything is sent. ``validated()`` throws it early.
public struct Request: Sendable, Equatable {
    /// The fields, stored once: the finished ``MutableRequest`` (its URL set, its finalisers run and dropped).
    /// Adding a field to ``MutableRequest`` adds it here; only a read-only accessor below is needed.
    let storage: MutableRequest

    /// The URL without ``queryItems``.
    public var url: URL { storage.url ?? Self.placeholderURL }
    /// The URL as sent: ``url`` with ``queryItems`` appended to its query (before any fragment).
    ///
    /// Formed when read (about 1 µs on Linux, most of it `URL(string:)`), so building a request stays cheap.
    public var fullURL: URL {
        QueryEncoding.url(url, appending: queryItems) ?? url
    }
    /// The request method as sent (a redirect that changes it makes a new request: see ``RedirectPolicy``).
    public var method: HTTPMethod { storage.method }
    /// The header fields.
    public var headers: HTTPHeaders { storage.headers }
    /// The body, if any; its `Content-Type` is in ``headers``.
    public var body: Data? { storage.body }
    /// A body streamed from disk (a file or multipart form data) instead of ``body``.
    public var bodySource: BodySource? { storage.bodySource }
    /// Edits of the transport's `URLRequest`, applied last and in order.
    public var urlRequestEdits: [URLRequestEdit] { storage.urlRequestEdits }
    /// The query items added to ``url``, in order.
    public var queryItems: [URLQueryItem] { storage.queryItems }
    /// The time allowed without progress; `nil` uses the transport's default (60 seconds for URLSession).
    public var timeout: TimeInterval? { storage.timeout }
    /// The time allowed for the whole request, through every retry and redirect; `nil` for none.
    public var deadline: TimeInterval? { storage.deadline }
    /// TLS trust anchors and client identity, if any.
    public var tlsCredentials: TLSCredentials? { storage.tlsCredentials }
    /// How much of the response may be held; `nil` keeps the client's (or, sent straight through a transport,
    /// ``ResponseLimits/standard``).
    public var responseLimits: ResponseLimits? { storage.responseLimits }
    /// The limits a transport enforces for this request.
    var effectiveLimits: ResponseLimits { storage.responseLimits ?? .standard }
    /// Whether ``RetryPolicy`` may retry the request although its method is not idempotent.
    public var allowsRetries: Bool { storage.allowsRetries }
    /// The status codes that count as success for this request alone; `nil` keeps the client's validation.
    public var acceptableStatusCodes: Set<Int>? { storage.acceptableStatusCodes }
    /// How a `CachingTransport` uses its store for this request; `nil` keeps the transport's default.
    public var cachePolicy: CachePolicy? { storage.cachePolicy }
    /// Why the request could not be built, or `nil` when it is complete.
    public var failureReason: String? { storage.failureReason }

    /// A request from a ``MutableRequest``: runs its URL-dependent steps (``MutableRequest/whenURLIsKnown(_:)``)
    /// and resolves the full URL.
    public init(_ request: MutableRequest) {
        var request = request
        if request.url == nil { request.fail("the request has no URL") }
        request.url = request.url ?? Self.placeholderURL
        let finalizers = request.finalizers
        request.finalizers = MutableRequest.Finalizers()
        for step in finalizers { step(&request) }
        if let problem = HeaderValidation.problem(in: request.headers) { request.fail(problem) }
        self.storage = request
    }

    /// A copy with `headers` changed, for interceptors that sign requests.
    public func settingHeader(_ name: String, _ value: String?) -> Request {
        editing { $0.headers[name] = value }
    }

    /// A copy changed by `edit`, finished again (headers validated) as ``init(_:)`` does.
    func editing(_ edit: (inout MutableRequest) -> Void) -> Request {
        var mutable = storage
        edit(&mutable)
        return Request(mutable)
    }

    /// The request itself, or ``ResponseError/invalidRequest(reason:)`` when it could not be built.
    public func validated() throws(ResponseError) -> Request {
        if let failureReason { throw .invalidRequest(reason: failureReason) }
        return self
    }

    /// The URL an incomplete request carries; never sent.
    static let placeholderURL = URL(fileURLWithPath: "/girders-invalid-request")

    /// The root that relative paths are joined to (``MutableRequest/init(method:path:)``): an empty relative URL,
    /// so the result has no scheme and no host until ``HTTPClient`` resolves it against its base URL.
    static let relativeRoot = URL(string: "/") ?? placeholderURL

    /// Whether the URL names no scheme: a path for the client's ``HTTPClient/baseURL``.
    var isRelative: Bool { url.scheme == nil }

    /// This request with its relative URL appended to `base` (exactly one slash between them), or `nil` when the
    /// result is no URL.
    func resolved(against base: URL) -> Request? {
        guard let joined = Self.join(base, url.relativeString) else { return nil }
        return editing { $0.url = joined }
    }
}
