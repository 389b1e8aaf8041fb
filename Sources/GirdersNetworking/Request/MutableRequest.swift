public import Foundation

/// The request under construction that generator functions pass along with `|>`.
///
/// Every field is readable and writable, so a generator function of your own is a plain
/// `(MutableRequest) -> MutableRequest`:
///
/// ```swift
/// func withTracing(_ request: MutableRequest) -> MutableRequest {
///     var request = request
///     request.headers["X-Request-ID"] = UUID().uuidString
///     return request
/// }
/// ```
///
/// A generator function that cannot do its job calls ``fail(_:)``: the finished ``Request`` carries the reason
/// and the client reports it as ``ResponseError/invalidRequest(reason:)`` without sending anything.
public struct MutableRequest: Sendable, Equatable {
    /// The absolute URL, without the ``queryItems``. Set by ``Request``'s initialisers or ``withURL(_:)``.
    public var url: URL?
    /// The request method; a body with `GET` is refused before anything is sent.
    public var method: HTTPMethod
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body bytes; the matching `Content-Type` is in ``headers``.
    public var body: Data?
    /// A body streamed from disk instead of ``body``; setting one clears the other through the generators.
    public var bodySource: BodySource?
    /// Edits of the transport's `URLRequest`, applied last and in order (see ``withURLRequestEdit(_:)``).
    public var urlRequestEdits: [URLRequestEdit] = []
    /// Query items appended to ``url``'s own query, in order; repeated names are allowed.
    public var queryItems: [URLQueryItem]
    /// The time allowed without progress before the request fails with ``ResponseError/timedOut(url:)``.
    public var timeout: TimeInterval?
    /// The time allowed for the whole request, from its first attempt through every retry and redirect, before it
    /// fails with ``ResponseError/deadlineExceeded(url:seconds:)``; `nil` for none. Set by ``withDeadline(_:)``.
    public var deadline: TimeInterval?
    /// Trust anchors and a client identity for TLS.
    public var tlsCredentials: TLSCredentials?
    /// How much of the response may be held, in place of the client's ``HTTPClient/responseLimits``; `nil` (the
    /// default) keeps the client's. Set by ``withResponseLimits(_:)``.
    public var responseLimits: ResponseLimits?
    /// Whether ``RetryPolicy`` may retry the request although its method is not idempotent.
    public var allowsRetries = false
    /// The status codes that count as success for this request alone, in place of the client's
    /// ``ResponseValidation/acceptableStatusCodes``; `nil` (the default) keeps the client's. Set by
    /// ``withAcceptableStatusCodes(_:)`` and ``withRejectionCodes(_:)``.
    public var acceptableStatusCodes: Set<Int>?
    /// How a `CachingTransport` uses its store for this request; `nil` (the default) keeps the transport's
    /// `CachingTransport/defaultPolicy`. Set by ``withCachePolicy(_:)``.
    public var cachePolicy: CachePolicy?
    /// The first problem a generator function reported, if any.
    public private(set) var failureReason: String?
    /// Whether the client adds the session headers from its cookie jar when it sends the request (set by
    /// ``withSessionCookie(_:)``).
    var readsSessionCookie = false
    /// Steps that need the final URL, run by ``Request/init(_:)`` once the URL is known.
    var finalizers = Finalizers()

    /// An empty request with a method and optionally a URL.
    public init(method: HTTPMethod = .get, url: URL? = nil) {
        self.method = method
        self.url = url
        self.headers = HTTPHeaders()
        self.queryItems = []
    }

    /// An empty request for a path that the client resolves against its ``HTTPClient/baseURL`` (Dratini's
    /// `RequestQueue(baseURL:)` with requests that name only their path):
    ///
    /// ```swift
    /// let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v2")!)
    /// let request = Request(MutableRequest(method: .post, path: "/login") |> withJSONBody(credentials))
    /// ```
    ///
    /// A `.` or `..` segment (also as `%2E`) fails the request, so a path never climbs above the base URL; a path
    /// that is no URL path fails it too. Sent by a client without a base URL, the request fails with
    /// ``ResponseError/invalidRequest(reason:)`` and nothing is sent.
    public init(method: HTTPMethod = .get, path: String) {
        self.init(method: method)
        if let segment = Request.dotSegment(in: path) {
            fail("the path \(path.debugDescription) holds the dot segment '\(segment)'; use pathSegment(_:) for values")
        } else if let url = Request.join(Request.relativeRoot, path) {
            self.url = url
        } else {
            fail("the path \(path.debugDescription) is not a URL path")
        }
    }

    /// A mutable copy of a finished request: its URL already carries no query; the query items stay separate.
    public init(_ request: Request) {
        self = request.storage
    }

    /// Records why the request cannot be built; the first reason wins.
    public mutating func fail(_ reason: String) {
        if failureReason == nil { failureReason = reason }
    }

    /// Sets a body and its `Content-Type`.
    public mutating func setBody(_ data: Data, contentType: String) {
        body = data
        bodySource = nil
        headers["Content-Type"] = contentType
    }

    /// Sets or replaces header fields (GirdersSwift's name).
    public mutating func updateHTTPHeaderFields(_ fields: [String: String]) {
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            headers[name] = value
        }
    }

    /// Registers a step that runs once the final URL is known, after every generator function.
    public mutating func whenURLIsKnown(_ step: @escaping @Sendable (inout MutableRequest) -> Void) {
        finalizers.steps.append(step)
    }

    /// The steps ``whenURLIsKnown(_:)`` registered. They never take part in equality: a finished ``Request``
    /// has run and dropped them.
    struct Finalizers: Sendable, Equatable, Sequence {
        var steps: [@Sendable (inout MutableRequest) -> Void] = []

        static func == (lhs: Finalizers, rhs: Finalizers) -> Bool { true }

        func makeIterator() -> IndexingIterator<[@Sendable (inout MutableRequest) -> Void]> {
            steps.makeIterator()
        }
    }
}
