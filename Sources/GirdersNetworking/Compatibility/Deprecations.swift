public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

// Every deprecated declaration of GirdersNetworking, in one place: GirdersSwift's call shapes that have a better
// form now (each message says which), and the older transfer API. Each still works as documented; the
// compatibility tests run them (Tests/GirdersSwiftCompatibilityTests, Tests/GirdersNetworkingTests/Transfers).
// Last, the cookie-jar declarations the transports no longer have: unavailable, so code that used them stops
// compiling with the replacement in the message rather than losing its cookies quietly.

/// GirdersSwift's deprecated `HTTPClient` initialiser.
extension HTTPClient {
    /// GirdersSwift's `HTTPClient(handlers:)`: `handlers` are asked first, then the standard chain (GirdersSwift
    /// had no standard chain, so a type none of its handlers knew decoded to `nil`).
    @available(*, deprecated, message: "use HTTPClient(responseHandlers: .standard.prepending(handler))")
    public convenience init(handlers: [any ResponseHandler]) {
        self.init(responseHandlers: Self.chain(first: handlers))
    }
}

/// GirdersSwift's deprecated date formatter cache.
extension Date {
    /// GirdersSwift's formatter cache: a `DateFormatter` for `format` with the `en_US_POSIX` locale and GMT,
    /// made once per thread and format and reused (a formatter must not be shared across threads).
    @available(
        *, deprecated,
        message: "use RFC3339Date / HTTPDate (parse and string(from:)), several times faster, or Date.FormatStyle"
    )
    public static func dateFormatter(withFormat format: String) -> DateFormatter {
        let cache = Thread.current.threadDictionary
        let key = "GirdersNetworking.dateFormatter." + format
        if let formatter = cache[key] as? DateFormatter { return formatter }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = format
        cache[key] = formatter
        return formatter
    }
}

/// DotDotDot's transfer tasks.
extension HTTP {
    /// A ``FluentTask`` uploading `request` and decoding the reply as `T`, with progress.
    @available(*, deprecated, message: "use task(_:as:queue:), or upload(_:progress:) in a Task for progress")
    public func task<T: Sendable>(
        uploading request: Request, as type: T.Type = T.self, queue: DispatchQueue = .main,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) -> FluentTask<T> {
        FluentTask(queue: queue) { () async throws(ResponseError) -> Response<T> in
            let raw = try await self.upload(request, progress: progress)
            return Response(raw, bodyObject: try self.responseHandlers.decode(raw, as: T.self))
        }
    }

    /// A ``FluentTask`` downloading `request` to `destination`; its body object is the destination.
    @available(*, deprecated, message: "use download(_:to:progress:) in a Task")
    public func task(
        downloading request: Request, to destination: URL, queue: DispatchQueue = .main,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) -> FluentTask<URL> {
        FluentTask(queue: queue) { () async throws(ResponseError) -> Response<URL> in
            Response(try await self.download(request, to: destination, progress: progress), bodyObject: destination)
        }
    }
}

/// GirdersSwift's `Response` members, kept for code that builds responses (mocks) or reads `responseHeaders`.
extension Response {
    /// GirdersSwift's headers dictionary (`HTTPURLResponse.allHeaderFields`): each name once, as the server spelled
    /// it, repeated fields joined with `", "`.
    @available(*, deprecated, message: "use headers, which looks names up case-insensitively: headers[\"ETag\"]")
    public var responseHeaders: [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (name, value) in headers.dictionary { result[name] = value }
        return result
    }

    /// GirdersSwift's memberwise initialiser, for mocks: a `GET` of `url` answered with `statusCode`. Header names
    /// and values that are not strings are dropped.
    @available(*, deprecated, message: "use Response(_:bodyObject:) with an HTTPResponse")
    public init(statusCode: Int, body: Data?, bodyObject: T?, responseHeaders: [AnyHashable: Any], url: URL?) {
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in responseHeaders { fields[name] = value }
        let request = Request(MutableRequest(method: .get, url: url ?? Request.placeholderURL))
        let raw = HTTPResponse(
            statusCode: statusCode, headers: HTTPHeaders(fields), body: body ?? Data(), url: url, request: request)
        self.init(raw, bodyObject: bodyObject)
    }
}

/// GirdersSwift's `MutableRequest` members, kept so its generator functions compile; each says what to write now.
extension MutableRequest {
    /// GirdersSwift's `httpMethod()`.
    @available(*, deprecated, renamed: "method", message: "read the method property")
    public func httpMethod() -> HTTPMethod {
        method
    }

    /// GirdersSwift's labelled header update: sets or replaces each field.
    @available(*, deprecated, renamed: "updateHTTPHeaderFields(_:)", message: "drop the headerFields: label")
    public mutating func updateHTTPHeaderFields(headerFields: [String: String]) {
        updateHTTPHeaderFields(headerFields)
    }

    /// GirdersSwift's `updateParameters(parameters:)`: the value is applied as an endpoint's `parameters` are (see
    /// ``ServiceEndpoint/parameters``): query items for `GET` and `HEAD`, a body otherwise. As in GirdersSwift, a
    /// dictionary is merged into the dictionary parameters given before (later keys win); any other value replaces
    /// them. A value Girders cannot send fails the request naming it.
    @available(
        *, deprecated,
        message: "pipe withJSONBody(dictionary:), withQueryParameters(_:) or withJSONBody(_:) for an Encodable value"
    )
    public mutating func updateParameters(parameters: Any?) {
        guard var parameters else { return }
        if let added = parameters as? [String: Any] {
            if method.sendsParametersInQuery {
                queryItems.removeAll { added[$0.name] != nil }
            } else if headers["Content-Type"] == "application/json", let body,
                var merged = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            {
                merged.merge(added) { _, new in new }
                parameters = merged
            }
        }
        EndpointParameters.apply(
            parameters: parameters, queryParameters: nil, owner: "updateParameters(parameters:)", to: &self)
    }

    /// GirdersSwift's `updateQueryParameters(parameters:)`: replaces the query with a dictionary's or
    /// `[URLQueryItem]`'s items (or an `Encodable` value's fields); `nil` clears it. GirdersSwift also cleared the
    /// query for a value it could not read; here that fails the request naming it.
    @available(*, deprecated, message: "pipe withQueryParameters(_:), withQueryItems(_:) or withQuery(_:)")
    public mutating func updateQueryParameters(parameters: Any?) {
        queryItems = []
        EndpointParameters.apply(
            parameters: nil, queryParameters: parameters, owner: "updateQueryParameters(parameters:)", to: &self)
    }
}

extension Request {
    /// A request with extra header fields on top of the default generator's (`Accept: application/json`).
    @available(
        *, deprecated,
        message: "use Request(URL:method:parameters:requestGenerator:) with a generator that adds the headers"
    )
    public init(
        URL url: URL, method: HTTPMethod = .get, parameters: [String: Any] = [:],
        additionalHeaders: [String: String]
    ) {
        var request = DefaultRequestGenerator().generateRequest(withMethod: method)
        request.url = url
        Self.apply(parameters: parameters.isEmpty ? nil : parameters, queryParameters: nil, to: &request)
        request.updateHTTPHeaderFields(additionalHeaders)
        self.init(request)
    }
}

/// A running upload or download whose progress arrives as an `AsyncStream`: the same job as
/// ``HTTP/upload(_:progress:)`` and ``HTTP/download(_:to:progress:)``, kept for code written against it.
///
/// ```swift
/// let transfer = client.downloadTransfer(request, to: destination)
/// for await step in transfer.progress { bar.value = step.fractionCompleted ?? 0 }
/// let response = try await transfer.response   // response.fileURL == destination
/// ```
///
/// The stream finishes when the transfer ends, however it ends. ``cancel()`` stops the transfer;
/// ``response`` then throws ``ResponseError/cancelled(url:)`` and a partial download is deleted.
@available(
    *, deprecated,
    message: "use upload(_:progress:) or download(_:to:progress:) in a Task; cancel the Task to cancel the transfer"
)
public final class Transfer: Sendable {
    /// Progress steps, in order; finishes when the transfer ends.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<HTTPResponse, any Error>
    private let url: URL

    init(
        request: Request, downloadDestination: URL?,
        perform: @escaping @Sendable (Request, TransferOptions) async throws(ResponseError) -> HTTPResponse
    ) {
        let (stream, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(64))
        progress = stream
        url = request.fullURL
        let options = TransferOptions(
            progress: { continuation.yield($0) }, downloadDestination: downloadDestination)
        task = Task {
            defer { continuation.finish() }
            return try await perform(request, options)
        }
    }

    /// The final response (for downloads, ``HTTPResponse/fileURL`` is the destination).
    public var response: HTTPResponse {
        get async throws(ResponseError) {
            do {
                return try await task.value
            } catch {
                throw error as? ResponseError ?? .cancelled(url: url)
            }
        }
    }

    /// Cancels the transfer.
    public func cancel() {
        task.cancel()
    }
}

@available(*, deprecated, message: "use upload(_:progress:) or download(_:to:progress:)")
extension HTTP {
    /// ``upload(_:progress:)`` with progress as an `AsyncStream`.
    @available(*, deprecated, message: "use upload(_:progress:) in a Task; cancel the Task to cancel the transfer")
    public func uploadTransfer(_ request: Request) -> Transfer {
        Transfer(request: request, downloadDestination: nil) { request, options throws(ResponseError) in
            try await self.perform(request, options: options)
        }
    }

    /// ``download(_:to:progress:)`` with progress as an `AsyncStream`.
    @available(
        *, deprecated, message: "use download(_:to:progress:) in a Task; cancel the Task to cancel the transfer"
    )
    public func downloadTransfer(_ request: Request, to destination: URL) -> Transfer {
        Transfer(request: request, downloadDestination: destination) { request, options throws(ResponseError) in
            try await self.perform(request, options: options)
        }
    }
}

/// The cookie jar on the transport, now the client's (``HTTPClient/cookieJar``): a decorator forwards nothing for
/// it, and ``withSessionCookie(_:)`` reads the jar of the client that sends the request.
extension HTTPTransport {
    /// Removed: the client keeps cookies, whatever transport and decorators are underneath.
    @available(*, unavailable, message: "the cookie jar is the client's: HTTPClient(transport:cookieJar:)")
    public var cookieJar: (any CookieJar)? { nil }
}

#if canImport(CGirdersCurl)
/// CurlTransport's cookie initialisers.
extension CurlTransport {
    /// Removed: the jar is the client's.
    @available(
        *, unavailable,
        message: "the cookie jar is the client's: HTTPClient(transport: CurlTransport(), cookieJar: jar)"
    )
    public convenience init(cookieJar: (any CookieJar)?, maximumConnectionsPerHost: Int = 0) {
        self.init(maximumConnectionsPerHost: maximumConnectionsPerHost)
    }

    /// Removed: the jar is the client's; an `HTTPCookieStorage` is one through ``SystemCookieJar``.
    @available(
        *, unavailable,
        message:
            "the cookie jar is the client's: HTTPClient(transport: CurlTransport(), cookieJar: SystemCookieJar(storage))"
    )
    public convenience init(cookieStorage: HTTPCookieStorage?, maximumConnectionsPerHost: Int = 0) {
        self.init(maximumConnectionsPerHost: maximumConnectionsPerHost)
    }
}
#endif

/// URLSessionTransport's cookie initialiser.
extension URLSessionTransport {
    /// Removed: the jar is the client's.
    @available(
        *, unavailable,
        message:
            "the cookie jar is the client's: HTTPClient(transport: URLSessionTransport(configuration: c), cookieJar: jar)"
    )
    public convenience init(configuration: URLSessionConfiguration, cookieJar: (any CookieJar)?) {
        self.init(configuration: configuration, delegateQueue: nil)
    }
}
