public import Foundation

/// An immutable HTTP request: what ``HTTP/executeRequest(request:)`` sends.
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
    /// The URL without ``queryItems``.
    public let url: URL
    /// The URL as sent: ``url`` with ``queryItems`` appended to its query (before any fragment).
    ///
    /// Formed when read (about 1 µs on Linux, most of it `URL(string:)`), so building a request stays cheap.
    public var fullURL: URL {
        QueryEncoding.url(url, appending: queryItems) ?? url
    }
    /// The request method.
    public let method: HTTPMethod
    /// The header fields.
    public let headers: HTTPHeaders
    /// The body, if any; its `Content-Type` is in ``headers``.
    public let body: Data?
    /// A body streamed from disk (a file or multipart form data) instead of ``body``.
    public let bodySource: BodySource?
    /// Edits of the transport's `URLRequest`, applied last and in order.
    public let urlRequestEdits: [URLRequestEdit]
    /// The query items added to ``url``, in order.
    public let queryItems: [URLQueryItem]
    /// The time allowed without progress; `nil` uses the transport's default (60 seconds for URLSession).
    public let timeout: TimeInterval?
    /// TLS trust anchors and client identity, if any.
    public let tlsCredentials: TLSCredentials?
    /// Whether ``RetryPolicy`` may retry the request although its method is not idempotent.
    public let allowsRetries: Bool
    /// The status codes that count as success for this request alone; `nil` keeps the client's validation.
    public let acceptableStatusCodes: Set<Int>?
    /// Why the request could not be built, or `nil` when it is complete.
    public let failureReason: String?

    /// A request from a ``MutableRequest``: runs its URL-dependent steps (such as ``withSessionCookie(_:)``)
    /// and resolves the full URL.
    public init(_ request: MutableRequest) {
        var request = request
        if request.url == nil { request.fail("the request has no URL") }
        let url = request.url ?? Self.placeholderURL
        request.url = url
        for step in request.finalizers { step(&request) }
        if let problem = HeaderValidation.problem(in: request.headers) { request.fail(problem) }
        self.url = url
        self.method = request.method
        self.headers = request.headers
        self.body = request.body
        self.bodySource = request.bodySource
        self.urlRequestEdits = request.urlRequestEdits
        self.queryItems = request.queryItems
        self.timeout = request.timeout
        self.tlsCredentials = request.tlsCredentials
        self.allowsRetries = request.allowsRetries
        self.acceptableStatusCodes = request.acceptableStatusCodes
        self.failureReason = request.failureReason
    }

    /// GirdersSwift's initialiser: the generator's request for `method`, the URL, and `parameters` (in the query
    /// for `GET` and `HEAD`, otherwise as a JSON body with `Content-Type: application/json`), plus
    /// `queryParameters` in the query for every method.
    ///
    /// Unlike GirdersSwift, the query is never dropped for non-`GET` methods and no empty `{}` body is sent when
    /// `parameters` is `nil`.
    public init(
        URL url: URL,
        method: HTTPMethod = .get,
        parameters: [String: Any]? = nil,
        queryParameters: [String: Any]? = nil,
        requestGenerator: any RequestGenerator = DefaultRequestGenerator()
    ) {
        var request = requestGenerator.generateRequest(withMethod: method)
        request.method = method
        request.url = url
        Self.apply(parameters: parameters, queryParameters: queryParameters, to: &request)
        self.init(request)
    }

    static func apply(parameters: [String: Any]?, queryParameters: [String: Any]?, to request: inout MutableRequest) {
        if let parameters {
            if request.method.sendsParametersInQuery {
                request.queryItems += QueryEncoding.items(from: parameters)
            } else {
                request = request |> withJSONBody(dictionary: parameters)
            }
        }
        if let queryParameters {
            request.queryItems += QueryEncoding.items(from: queryParameters)
        }
    }

    /// A copy with `headers` changed, for interceptors that sign requests.
    public func settingHeader(_ name: String, _ value: String?) -> Request {
        var mutable = MutableRequest(self)
        mutable.headers[name] = value
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
        var mutable = MutableRequest(self)
        mutable.url = joined
        return Request(mutable)
    }
}
