import GirdersLog
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
/// response instead of letting FoundationNetworking hang on it (its body is not available there). A cancel, a
/// timeout or a deadline ends the request at once, without waiting for URLSession to report the task's end.
///
/// On Linux, prefer ``CurlTransport`` (the default) for servers that are not yours. FoundationNetworking decodes and
/// frames responses in its own libcurl, which Girders cannot fix, and hands this transport only what it decided:
/// one valid HTTP trailer field kills the process ("Transfer completed, but there's no response"); a content coding
/// cut short (half a gzip stream whose `Content-Length` was met) is a `200` with part of the body; a decompression
/// bomb is decoded and queued before ``ResponseLimits/bodyBytes`` stops it (the peak grew by 283 MiB for a 256 MiB
/// bomb under the 32 MiB limit); 100,000 header fields take seconds of its CPU before libcurl refuses them; a slow
/// stream reader lets 85-196 MiB pile up before the limit. Measured and pinned in Documentation/HostileServers.md;
/// CurlTransport has none of these.
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

    /// A transport over a new session with the `.default` configuration but no `URLCache`: Girders has its own
    /// HTTP cache, the same on every transport (`CachingTransport`), and FoundationNetworking's cache cost about
    /// 150 µs of CPU a request while storing nothing.
    public convenience init() {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        self.init(configuration: configuration)
    }

    /// A transport over a new session with `configuration`.
    ///
    /// The configuration is used as it is, except (in a copy; the caller's is not changed) that the session's own
    /// cookie handling and its `URLCache` are off on every platform: cookies are the client's
    /// (``HTTPClient/cookieJar``), so both transports share one jar and one set of rules, and `CachingTransport`
    /// is the one cache, so nothing is cached twice and every platform caches alike. A configuration whose cookie
    /// settings name another jar than ``CookieJars/shared`` (`.ephemeral`, a storage of its own, cookies off) is
    /// reported as a warning through GirdersLog's `Log` each time such a transport is made: give the client the jar
    /// they describe, `HTTPClient(transport: transport, cookieJar: CookieJars.jar(for: configuration))`.
    ///
    /// FoundationNetworking looks a request up in the session's `URLCache` on a background queue before the
    /// transfer exists; a cancel (a cancelled `Task`, a timeout) that lands in that window reports its error after
    /// the task has left the session, and the process traps ("Trying to access a behaviour for a task that in not
    /// in the registry", swift-corelibs-foundation issue 3296). Without a cache the window does not exist. Cache
    /// responses with `CachingTransport` instead, on every platform.
    public convenience init(configuration: URLSessionConfiguration) {
        if let ignored = Self.ignoredCookieSettings(of: configuration) {
            Log.logger.log(
                .warning,
                "URLSessionTransport: the configuration \(ignored); cookies are the client's: pass "
                    + "HTTPClient(cookieJar: CookieJars.jar(for: configuration))",
                metadata: nil, fileID: #fileID, function: #function, line: #line)
        }
        self.init(configuration: configuration, delegateQueue: nil)
    }

    /// ``init(configuration:)`` with the queue the session's delegate is called on (tests hold it to show that a
    /// cancelled request does not wait for URLSession's report).
    init(configuration: URLSessionConfiguration, delegateQueue: OperationQueue?) {
        let delegate = SessionDelegate(credentials: nil, identities: identities)
        self.delegate = delegate
        self.session = URLSession(
            configuration: Self.prepared(configuration), delegate: delegate, delegateQueue: delegateQueue)
    }

    /// What `configuration`'s cookie settings ask for that a client with ``CookieJars/shared`` does not do, or
    /// `nil` when they describe that jar.
    static func ignoredCookieSettings(of configuration: URLSessionConfiguration) -> String? {
        if configuration.httpCookieAcceptPolicy == .never || !configuration.httpShouldSetCookies
            || configuration.httpCookieStorage == nil
        {
            return "turns cookies off"
        }
        if configuration.httpCookieStorage !== HTTPCookieStorage.shared {
            return "keeps cookies in a storage of its own (as .ephemeral does)"
        }
        return nil
    }

    /// A copy of `configuration` without cookie handling and without a `URLCache` (see ``init(configuration:)``).
    private static func prepared(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        let copy = configuration.copy() as? URLSessionConfiguration ?? configuration
        copy.urlCache = nil
        copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        copy.httpCookieAcceptPolicy = .never
        copy.httpShouldSetCookies = false
        copy.httpCookieStorage = nil
        return copy
    }

    /// A transport with an existing session's configuration (but its cookie handling and cache: see
    /// ``init(configuration:)``): its credential storage, extra headers, timeouts and `URLProtocol` classes (so a
    /// mocking protocol keeps working), in a session of the transport's own. The existing session's delegate and tasks are not used: redirects, TLS credentials and
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
    func channel(for request: Request) -> (session: URLSession, delegate: SessionDelegate) {
        let key = ChannelKey(for: request)
        if key.isDefault { return (session, delegate) }
        return channels.channel(for: key) {
            let configuration = session.configuration.copy() as? URLSessionConfiguration ?? session.configuration
            let twinDelegate = SessionDelegate(credentials: key.credentials, identities: identities)
            return (URLSession(configuration: configuration, delegate: twinDelegate, delegateQueue: nil), twinDelegate)
        }
    }

    /// Sends `request` once into `sink`, streamed through the session's delegate, so that every response is held
    /// to its ``ResponseLimits`` as it arrives: a file or multipart body is read from disk, progress is reported as
    /// it happens, and the sink keeps the body in memory, a download file or a stream. A completion-handler data
    /// task would be one hop cheaper but collects a body of any size before Girders sees a byte of it.
    ///
    /// URLSession cannot hold a data task's body back (a suspended task starts over when resumed, on Apple
    /// platforms as documented and on Linux as tried), so a streamed body whose reader lags is held to
    /// ``ResponseLimits/bodyBytes`` of unread bytes here; ``CurlTransport`` pauses the transfer instead. Nor can it
    /// wait for a ``BodyStream``'s producer while it reads: such a body is written to a temporary file first and
    /// sent from there (``CurlTransport`` sends it as it is produced).
    public func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        try Self.check(request)
        if sink.asksForUpgrade { return try await openUpgrade(request, into: sink) }
        // A body in memory is the URLRequest's own; any other is uploaded from a file: a file body itself, multipart
        // form data encoded into one, a stream's chunks written to one first (URLSession cannot wait for a producer
        // inside its read: FoundationNetworking reads on one queue for the whole process).
        var body: RequestBodyReader?
        switch request.body {
        case .none, .data: break
        case .source, .stream: body = try request.openBody()
        }
        defer { body?.close() }
        var urlRequest = Self.urlRequest(for: request)
        var uploadFile = try await body?.file()
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
        let transfer = TransferTask(wire: request, sink: sink)
        let (session, delegate) = channel(for: request.request)
        try await run(request, delegate) { [uploadFile, urlRequest] continuation, control in
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

    /// Creates a task with `makeTask` and starts it (both on ``TaskControl/queue``), and waits for the continuation it
    /// resumes; cancelling the calling `Task` cancels the URLSession task, even before it started.
    private func run(
        _ request: WireRequest, _ delegate: SessionDelegate,
        _ makeTask: @escaping @Sendable (CheckedContinuation<Void, any Error>, TaskControl) -> URLSessionTask
    ) async throws(ResponseError) {
        let control = TaskControl(timeout: Self.watchedTimeout(of: request))
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    control.start { makeTask(continuation, control) }
                }
            } onCancel: {
                control.cancel()
            }
        } catch {
            control.finish()
            let mapped = error as? ResponseError ?? .transport(url: request.url, code: 0, reason: "\(error)")
            if mapped.isCancellation, control.timedOut { throw .timedOut(url: request.url) }
            throw mapped
        }
        control.finish()
    }

    /// Refuses what URLSession cannot send, before anything is sent.
    private static func check(_ request: WireRequest) throws(ResponseError) {
        #if canImport(FoundationNetworking)
        if request.tlsCredentials != nil {
            throw .unsupported(
                feature:
                    "TLS credentials (custom trust anchors, client identities) with FoundationNetworking on Linux; "
                    + "use the system trust store or another HTTPTransport")
        }
        #endif
    }

    /// The timeout ``TaskControl`` must keep itself, or `nil` when URLSession keeps it exactly: FoundationNetworking
    /// cuts the interval to whole seconds (0.5 fired at once, 1.8 after 1 s), so a fractional timeout is watched
    /// there; whole seconds (the 60 s default among them), and every timeout on Apple platforms, need no watchdog.
    static func watchedTimeout(of request: WireRequest) -> TimeInterval? {
        #if canImport(FoundationNetworking)
        let timeout = request.timeout
        guard timeout.isFinite, timeout > 0 else { return nil }
        return timeout >= 1 && timeout.rounded() == timeout ? nil : timeout
        #else
        return nil
        #endif
    }

    /// The `URLRequest` for `request`: the one its edits produced (with properties only URLSession has), or one
    /// built from it; a timeout ``TaskControl`` keeps is set beyond it for URLSession.
    static func urlRequest(for request: WireRequest) -> URLRequest {
        var urlRequest = request.otherEdits?.edited ?? request.urlRequest()
        if watchedTimeout(of: request) != nil {
            urlRequest.timeoutInterval = min(request.timeout, 31_536_000).rounded(.up) + 1
        }
        return urlRequest
    }
}

extension TransportFailure {
    /// URLSession's failure `error`: its `URLError` code, or, where FoundationNetworking reports one of libcurl's
    /// failures as -1 (`NSURLErrorUnknown`), what its underlying POSIX error or its description says, so a refused
    /// or reset connection is the same failure CurlTransport reports (and `RetryPolicy` retries it alike).
    init(urlSessionError error: any Error) {
        let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
        let description = error.localizedDescription
        if code == URLError.unknown.rawValue, let posix = Self.underlyingPOSIXCode(of: error) {
            switch posix {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH:
                self.init(.cannotConnect, reason: description)
                return
            case ECONNRESET, EPIPE, ECONNABORTED:
                self.init(.interrupted, reason: description)
                return
            default: break
            }
        }
        self.init(urlErrorCode: code, description: description)
    }

    /// The first POSIX error code in `error`'s chain of underlying errors.
    static func underlyingPOSIXCode(of error: any Error) -> Int32? {
        var current: NSError? = error as NSError
        for _ in 0..<8 {
            guard let next = current else { return nil }
            if next.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: next.code) }
            current = next.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return nil
    }

    /// URLSession's failure with `URLError` code `code` (FoundationNetworking reports several of libcurl's own as
    /// -1 and says which in the description: libcurl's `strerror` text, or its error buffer's).
    init(urlErrorCode code: Int, description: String) {
        switch URLError.Code(rawValue: code) {
        case .cancelled: self.init(.cancelled, reason: description)
        case .timedOut: self.init(.timedOut, reason: description)
        case .cannotConnectToHost, .notConnectedToInternet: self.init(.cannotConnect, reason: description)
        case .networkConnectionLost: self.init(.interrupted, reason: description)
        case .unknown
        where description.hasSuffix("Couldn't connect to server") || description.hasPrefix("Failed to connect to")
            || description.contains("Connection refused"):
            self.init(.cannotConnect, reason: description)  // libcurl's CURLE_COULDNT_CONNECT
        case .unknown
        where description.hasPrefix("Recv failure") || description.hasPrefix("Send failure")
            || description.hasPrefix("Failure when receiving data") || description.hasPrefix("Failed sending data")
            || description.contains("Connection reset by peer"):
            self.init(.interrupted, reason: description)  // libcurl's CURLE_RECV_ERROR and CURLE_SEND_ERROR
        case .unknown where description.hasPrefix("transfer closed with"):
            self.init(.interrupted, reason: description)  // libcurl's CURLE_PARTIAL_FILE: the body was cut short
        case .unknown
        where description.hasPrefix("SSL certificate problem") || description.hasPrefix("SSL peer certificate"):
            self.init(.untrustedServer, reason: description)  // libcurl's CURLE_PEER_FAILED_VERIFICATION
        case .unknown where description == "Out of memory":
            self.init(.malformedResponse, reason: ResponseError.headerLineTooLong)  // a header line over 100 KB
        case .unknown where description.hasPrefix("Too large response headers"):
            // libcurl's own bound on all heads together (300 KB in 7.88).
            self.init(
                .malformedResponse, reason: "the response's heads are larger than libcurl accepts (\(description))")
        case .badServerResponse where description.hasPrefix("Empty reply from server"):
            // libcurl's CURLE_GOT_NOTHING (the connection closed before any response): CurlTransport says interrupted.
            self.init(.interrupted, reason: description)
        case .cannotFindHost, .dnsLookupFailed: self.init(.cannotFindHost, reason: description)
        default: self.init(.other, reason: description, code: code)
        }
    }
}
