import GirdersSupport

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// The default ``HTTPTransport`` on Apple platforms, and selectable on Linux (where ``CurlTransport`` is the
/// default): `URLSession` (FoundationNetworking on Linux) with a session delegate of its own.
///
/// The delegate returns redirects to ``HTTPClient`` instead of following them, answers TLS challenges from the
/// request's ``TLSCredentials`` on Apple platforms, and on Linux turns a `401` with `WWW-Authenticate` into a
/// response instead of letting FoundationNetworking hang on it (its body is not available there).
public final class URLSessionTransport: HTTPTransport {
    /// The session requests run on. On Linux its configuration is a copy of the one given, without a `URLCache`
    /// and with cookie acceptance left to the transport (see ``init(configuration:)``).
    public let session: URLSession
    private let delegate: SessionDelegate
    /// The sessions for requests with TLS credentials (one per distinct set: TLS is negotiated once per
    /// connection) and, on Linux, for requests with their own `Cookie` header (see ``ChannelKey``).
    private let channels = ChannelTable<(URLSession, SessionDelegate)>(limit: 16) { $0.0.finishTasksAndInvalidate() }
    /// Client identities imported once for all of this transport's sessions.
    private let identities = SessionDelegate.Identities()
    /// Where cookies are read from before a request and stored after each response; `nil` for none.
    public let cookieJar: (any CookieJar)?

    /// A transport over a new session with the `.default` configuration but no `URLCache`: ``HTTPClient`` has its
    /// own response cache (``RevalidatingTransport``), and FoundationNetworking's cache cost about 150 µs of CPU a
    /// request while storing nothing. Cookies go to ``CookieJars/shared``.
    public convenience init() {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        self.init(configuration: configuration)
    }

    /// A transport over a new session with `configuration`, whose cookie settings choose the jar (see
    /// ``CookieJars/jar(for:)``: `HTTPCookieStorage.shared` means ``CookieJars/shared``).
    public convenience init(configuration: URLSessionConfiguration) {
        self.init(configuration: configuration, cookieJar: CookieJars.jar(for: configuration))
    }

    /// A transport over a new session with `configuration` and cookies in `cookieJar` (`nil`: none).
    ///
    /// The configuration is used as it is, except (in a copy; the caller's is not changed) that the session's own
    /// cookie handling is off on every platform (the transport reads and fills `cookieJar` itself, so both
    /// transports share one jar and one set of rules) and, on Linux, its `URLCache` is dropped.
    ///
    /// FoundationNetworking looks a request up in the session's `URLCache` on a background queue before the
    /// transfer exists; a cancel (a cancelled `Task`, a timeout) that lands in that window reports its error after
    /// the task has left the session, and the process traps ("Trying to access a behaviour for a task that in not
    /// in the registry", swift-corelibs-foundation issue 3296). Without a cache the window does not exist. Cache
    /// responses with ``RevalidatingTransport`` instead, on every platform.
    public init(configuration: URLSessionConfiguration, cookieJar: (any CookieJar)?) {
        let delegate = SessionDelegate(credentials: nil, identities: identities)
        self.delegate = delegate
        self.cookieJar = cookieJar
        self.session = URLSession(configuration: Self.prepared(configuration), delegate: delegate, delegateQueue: nil)
    }

    /// A copy of `configuration` without cookie handling and, on Linux, without a `URLCache` (see
    /// ``init(configuration:cookieJar:)``).
    private static func prepared(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        let copy = configuration.copy() as? URLSessionConfiguration ?? configuration
        #if canImport(FoundationNetworking)
        copy.urlCache = nil
        #endif
        copy.httpCookieAcceptPolicy = .never
        copy.httpShouldSetCookies = false
        copy.httpCookieStorage = nil
        return copy
    }

    /// A transport with an existing session's configuration: its cookies, cache, credential storage, extra
    /// headers, timeouts and `URLProtocol` classes (so a mocking protocol keeps working), in a session of the
    /// transport's own. The existing session's delegate and tasks are not used: redirects, TLS credentials and
    /// transfers need the transport's delegate.
    public convenience init(session: URLSession) {
        self.init(configuration: session.configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
        for (session, _) in channels.all { session.finishTasksAndInvalidate() }
    }

    /// The session for `request`, with its delegate: ``session``, or the session of its ``ChannelKey`` (a
    /// delegate of its own, since task identifiers are per session): one per distinct ``TLSCredentials``.
    private func channel(for request: Request) -> (session: URLSession, delegate: SessionDelegate) {
        let key = ChannelKey(for: request)
        if key.isDefault { return (session, delegate) }
        return channels.channel(for: key) {
            let configuration = session.configuration.copy() as? URLSessionConfiguration ?? session.configuration
            let twinDelegate = SessionDelegate(credentials: key.credentials, identities: identities)
            return (URLSession(configuration: configuration, delegate: twinDelegate, delegateQueue: nil), twinDelegate)
        }
    }

    /// Sends `request` once; cancelling the calling `Task` cancels the transfer. The same as
    /// ``send(_:options:)`` with no options.
    public func send(_ request: Request) async throws(ResponseError) -> HTTPResponse {
        try await send(request, options: TransferOptions())
    }

    /// Sends `request` once, streamed through the session's delegate, so that every response is held to the
    /// request's ``ResponseLimits`` as it arrives: a file or multipart body is read from disk, progress is reported as
    /// it happens, and a 2xx body goes to a `DownloadFile` beside ``TransferOptions/downloadDestination`` (deleted
    /// again if the transfer fails, exceeds a limit or is cancelled). A completion-handler data task would be one hop
    /// cheaper but collects a body of any size before Girders sees a byte of it.
    public func send(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse {
        try Self.check(request)
        let upload = try request.bodySource?.uploadFile()
        defer { upload?.release() }
        var urlRequest = try Self.urlRequest(for: request)
        if urlRequest.value(forHTTPHeaderField: "Cookie") == nil, let url = urlRequest.url,
            let header = try CookieJars.requestField(for: url, from: cookieJar)
        {
            urlRequest.setValue(header, forHTTPHeaderField: "Cookie")
        }
        var uploadFile = upload?.url
        #if canImport(FoundationNetworking)
        // FoundationNetworking crashes when an upload-from-file task is cancelled (a forced try in EasyHandle.swift
        // fails with curl error 43), so on Linux a file is streamed instead, with chunked transfer encoding.
        if let file = uploadFile {
            guard let stream = InputStream(url: file) else {
                throw .fileError(path: file.path, reason: "cannot be opened for reading")
            }
            urlRequest.httpBodyStream = stream
            urlRequest.setValue(nil, forHTTPHeaderField: "Content-Length")  // chunked and a length would clash
            uploadFile = nil
        }
        #endif
        let transfer = TransferTask(
            request: request, options: options,
            uploadLength: request.bodySource?.length ?? request.body.map { Int64($0.count) })
        let (session, delegate) = channel(for: request)
        return try await run(request, delegate) { [uploadFile] continuation, control in
            transfer.attach(control)
            let task: URLSessionTask =
                if let uploadFile {
                    session.uploadTask(with: urlRequest, fromFile: uploadFile)
                } else {
                    session.dataTask(with: urlRequest)
                }
            delegate.register(task.taskIdentifier, transfer: transfer)
            transfer.wait(continuation)
            return task
        }
    }

    /// Creates a task with `makeTask`, starts it, and waits for the continuation it resumes; cancelling the
    /// calling `Task` cancels the URLSession task, even before it started.
    private func run(
        _ request: Request, _ delegate: SessionDelegate,
        _ makeTask: (CheckedContinuation<HTTPResponse, any Error>, TaskControl) -> URLSessionTask
    ) async throws(ResponseError) -> HTTPResponse {
        let control = TaskControl(timeout: Self.watchedTimeout(of: request))
        let response: HTTPResponse
        do {
            response = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    control.start(makeTask(continuation, control))
                }
            } onCancel: {
                control.cancel()
            }
        } catch {
            control.finish()
            let mapped = Self.responseError(error, request)
            if mapped.isCancellation, control.timedOut { throw .timedOut(url: request.fullURL) }
            throw mapped
        }
        control.finish()
        if let cookieJar, let url = response.url {
            // Apple's URLSession and FoundationNetworking both join repeated fields with ", ".
            let fields = response.headers.values(for: "Set-Cookie").flatMap(SetCookieFields.split)
            if !fields.isEmpty { cookieJar.store(fields, from: url) }
        }
        return response
    }

    /// Refuses what URLSession cannot send, before anything is sent.
    private static func check(_ request: Request) throws(ResponseError) {
        try WireRequest.check(request)
        #if canImport(FoundationNetworking)
        if request.tlsCredentials != nil {
            throw .unsupported(
                feature:
                    "TLS credentials (custom trust anchors, client identities) with FoundationNetworking on Linux; "
                    + "use the system trust store or another HTTPTransport")
        }
        #endif
    }

    private static func responseError(_ error: any Error, _ request: Request) -> ResponseError {
        error as? ResponseError ?? .transport(url: request.fullURL, code: 0, reason: "\(error)")
    }

    /// The timeout ``TaskControl`` must keep itself, or `nil` when URLSession keeps it exactly: FoundationNetworking
    /// cuts the interval to whole seconds (0.5 fired at once, 1.8 after 1 s), so a fractional timeout is watched
    /// there; whole seconds (the 60 s default among them), and every timeout on Apple platforms, need no watchdog.
    static func watchedTimeout(of request: Request) -> TimeInterval? {
        #if canImport(FoundationNetworking)
        let timeout = request.timeout ?? WireRequest.defaultTimeout
        guard timeout.isFinite, timeout > 0 else { return nil }
        return timeout >= 1 && timeout.rounded() == timeout ? nil : timeout
        #else
        return nil
        #endif
    }

    /// The `URLRequest` for `request`; header fields set by ``URLRequestEdit``s obey ``HeaderValidation`` too.
    static func urlRequest(for request: Request) throws(ResponseError) -> URLRequest {
        var urlRequest = URLRequest(url: request.fullURL)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        let timeout = request.timeout ?? WireRequest.defaultTimeout
        if watchedTimeout(of: request) != nil {
            // TaskControl keeps this one; URLSession's own is set beyond it.
            urlRequest.timeoutInterval = min(timeout, 31_536_000).rounded(.up) + 1
        } else {
            urlRequest.timeoutInterval = timeout
        }
        // The transport adds stored cookies itself (an explicit Cookie header wins): URLSession's own handling is off.
        urlRequest.httpShouldHandleCookies = false
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        guard !request.urlRequestEdits.isEmpty else { return urlRequest }
        for edit in request.urlRequestEdits { edit.apply(&urlRequest) }
        try WireRequest.checkTarget(
            url: urlRequest.url ?? Request.placeholderURL, method: urlRequest.httpMethod ?? "", edited: true)
        if let problem = HeaderValidation.problem(in: HTTPHeaders(urlRequest.allHTTPHeaderFields ?? [:])) {
            throw .invalidRequest(reason: "after a URLRequest edit, " + problem)
        }
        return urlRequest
    }

    static func outcome(
        request: Request, data: Data?, response: URLResponse?, error: (any Error)?, taskInfo: SessionDelegate.TaskInfo
    ) -> Result<HTTPResponse, any Error> {
        if let error {
            let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
            if code == URLError.cancelled.rawValue, let challenged = taskInfo.challengeResponse {
                return .success(Self.response(challenged, data: Data(), request: request))
            }
            if code == URLError.cancelled.rawValue, let tlsFailure = taskInfo.tlsFailure {
                return .failure(ResponseError.transport(url: request.fullURL, code: -1202, reason: tlsFailure))
            }
            return .failure(
                ResponseError(transportCode: code, url: request.fullURL, description: error.localizedDescription))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(ResponseError.transport(url: request.fullURL, code: 0, reason: "the response is not HTTP"))
        }
        return .success(Self.response(http, data: data ?? Data(), request: request))
    }

    static func response(_ http: HTTPURLResponse, data: Data, request: Request) -> HTTPResponse {
        // Sorted (by lower-cased name, computed once per field) so the order does not depend on a dictionary.
        let headers = http.allHeaderFields.map { name, value in
            (key: "\(name.base)".lowercased(), field: HTTPHeader(name: "\(name.base)", value: "\(value)"))
        }
        .sorted { $0.key < $1.key }.map(\.field)
        return HTTPResponse(
            statusCode: http.statusCode, headers: HTTPHeaders(ResponseFraming.cleaned(headers)), body: data,
            url: http.url ?? request.fullURL,
            request: request)
    }
}

extension ResponseError {
    /// The transport case for a `URLError` code.
    init(transportCode code: Int, url: URL?, description: String) {
        switch URLError.Code(rawValue: code) {
        case .cancelled: self = .cancelled(url: url)
        case .timedOut: self = .timedOut(url: url)
        case .cannotConnectToHost, .notConnectedToInternet:
            self = .cannotConnect(url: url, reason: description)
        case .networkConnectionLost:
            self = .interrupted(url: url, receivedBytes: nil, expectedBytes: nil, reason: description)
        case .unknown where description.hasPrefix("transfer closed with"):
            // libcurl's CURLE_PARTIAL_FILE, which FoundationNetworking reports as -1: the body was cut short.
            self = .interrupted(url: url, receivedBytes: nil, expectedBytes: nil, reason: description)
        case .unknown
        where description.hasPrefix("SSL certificate problem") || description.hasPrefix("SSL peer certificate"):
            // libcurl's CURLE_PEER_FAILED_VERIFICATION, which FoundationNetworking reports as -1; CurlTransport and
            // Apple's URLSession say serverCertificateUntrusted, and so does this.
            self = .transport(url: url, code: URLError.serverCertificateUntrusted.rawValue, reason: description)
        case .badServerResponse where description.hasPrefix("Empty reply from server"):
            // libcurl's CURLE_GOT_NOTHING (the connection closed before any response), which FoundationNetworking
            // reports as -1011; CurlTransport says interrupted, and so does this.
            self = .interrupted(url: url, receivedBytes: nil, expectedBytes: nil, reason: description)
        case .cannotFindHost, .dnsLookupFailed: self = .cannotFindHost(url: url, reason: description)
        default: self = .transport(url: url, code: code, reason: description)
        }
    }
}
