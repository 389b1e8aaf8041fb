public import Foundation

/// The ``HTTP`` client: a transport (URLSession by default), redirects, validation and response handlers.
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

    /// A client; every part has a default.
    public init(
        baseURL: URL? = nil,
        transport: any HTTPTransport = URLSessionTransport(),
        responseHandlers: ResponseHandlerChain = .standard,
        validation: ResponseValidation = ResponseValidation(),
        redirects: RedirectPolicy = .follow(),
        interceptors: [any RequestInterceptor] = [],
        monitors: [any EventMonitor] = []
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.responseHandlers = responseHandlers
        self.validation = validation
        self.redirects = redirects
        self.interceptors = interceptors
        self.monitors = monitors
    }

    /// A client sharing this one's transport and settings, with `interceptors` after this one's: per-call
    /// interceptors, as in `client.adding(RetryPolicy()).executeRequest(request: request)`.
    public func adding(_ interceptors: any RequestInterceptor...) -> HTTPClient {
        HTTPClient(
            baseURL: baseURL, transport: transport, responseHandlers: responseHandlers, validation: validation, redirects: redirects,
            interceptors: self.interceptors + interceptors, monitors: monitors)
    }

    /// Sends `request` through the interceptors, follows redirects under ``redirects``, validates the final
    /// response and returns it; failed attempts are retried as the interceptors decide.
    public func perform(_ request: Request) async throws(ResponseError) -> HTTPResponse {
        try await perform(request, options: TransferOptions())
    }

    /// ``perform(_:)`` as a streamed transfer: progress is reported for every attempt, and a download is moved to
    /// its destination only once the final response passed validation.
    public func perform(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse {
        if let reason = request.failureReason { throw .invalidRequest(reason: reason) }
        let request = try resolved(request)
        var attempt = 1
        while true {
            let context = InterceptorContext(attempt: attempt)
            var adapted = request
            for interceptor in interceptors {
                do {
                    adapted = try await interceptor.adapt(adapted, context: context)
                } catch let error as ResponseError {
                    throw error
                } catch {
                    throw .interceptorFailed(reason: "\(error)")
                }
            }
            for monitor in monitors { monitor.requestWillStart(adapted, attempt: attempt) }
            let started = ContinuousClock.now
            let failure: ResponseError
            do {
                let response = try await send(adapted, options: options)
                report(adapted, attempt, .success(response), since: started)
                return response
            } catch {
                failure = error
            }
            report(adapted, attempt, .failure(failure), since: started)
            if failure.isCancellation { throw failure }
            var decision = RetryDecision.doNotRetry
            for interceptor in interceptors where decision == .doNotRetry {
                decision = await interceptor.retry(adapted, after: failure, context: context)
            }
            switch decision {
            case .doNotRetry: throw failure
            case .fail(let error): throw error
            case .retry: break
            case .retryAfter(let seconds):
                do {
                    try await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1_000_000_000))
                } catch {
                    throw .cancelled(url: request.fullURL)
                }
            }
            attempt += 1
        }
    }

    /// `request` with a relative URL appended to ``baseURL``; an absolute one unchanged.
    private func resolved(_ request: Request) throws(ResponseError) -> Request {
        guard request.isRelative else { return request }
        guard let baseURL else {
            throw .invalidRequest(
                reason: "the URL \(request.url.relativeString.debugDescription) is relative and the client has no baseURL")
        }
        guard let resolved = request.resolved(against: baseURL) else {
            throw .invalidRequest(reason: "cannot append \(request.url.relativeString.debugDescription) to \(baseURL)")
        }
        return resolved
    }

    private func report(
        _ request: Request, _ attempt: Int, _ result: Result<HTTPResponse, ResponseError>,
        since start: ContinuousClock.Instant
    ) {
        guard !monitors.isEmpty else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        for monitor in monitors {
            monitor.requestDidFinish(request, attempt: attempt, result: result, seconds: seconds)
        }
    }

    /// One attempt: the transport, redirects, validation.
    private func send(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse {
        var current = request
        var followed = 0
        while true {
            if Task.isCancelled { throw .cancelled(url: current.fullURL) }
            let response = try await transport.send(current, options: options)
            guard let next = redirects.nextRequest(after: response, original: request) else {
                do {
                    try validation.validate(response, acceptingInstead: request.acceptableStatusCodes)
                } catch {
                    DownloadFile.discard(response)
                    throw error
                }
                return try DownloadFile.place(response, at: options.downloadDestination)
            }
            followed += 1
            if followed > redirects.maximumRedirects {
                throw .tooManyRedirects(url: request.fullURL, limit: redirects.maximumRedirects)
            }
            current = next
        }
    }
}
