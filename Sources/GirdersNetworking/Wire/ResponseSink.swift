public import Foundation
import GirdersSupport

/// Where a transport delivers one response as it arrives: the one owner of the response's body.
///
/// ``HTTPClient`` makes a sink for every attempt and hands it to ``HTTPTransport/send(_:to:)``. The transport
/// only moves bytes: it gives the sink the head (``receiveHead(statusCode:headers:)``), the body's pieces
/// (``receive(_:)``) and the upload's progress (``sent(_:of:)``), and throws when the exchange fails. The sink
/// does the rest, the same way for every transport:
///
/// - holds the head to ``ResponseLimits`` (field lines, bytes) and RFC 9112's framing rules (conflicting
///   `Content-Length` values are an error; with `Transfer-Encoding` the length is dropped);
/// - keeps the body where the request asked: in memory (held to ``ResponseLimits/bodyBytes``), in a download file
///   for a `2xx` (``ResponseLimits/downloadBytes``; the file is deleted if the exchange fails), or streamed to
///   the caller with back-pressure (``onBackPressure(pause:resume:)``);
/// - reports progress, and finds a body cut short against its `Content-Length`
///   (``ResponseError/interrupted(url:receivedBytes:expectedBytes:reason:)``).
///
/// A method that throws has stopped the response: the transport stops the exchange and throws that error.
/// A transport that has the whole response at once (a stub, a cache) calls ``deliver(_:)``.
///
/// Thread-safe: a transport may call it from its own thread while the caller reads a stream.
public final class ResponseSink: Sendable {
    /// Where the body goes: what a decorator reads to decide whether it can keep or replace the body (a cache keeps
    /// bodies in memory and streams; a download file or an upgrade goes straight to the wrapped transport).
    public enum Destination: Sendable, Equatable {
        /// In memory.
        case memory
        /// A successful (`2xx`) body to a download file beside this URL; any other status's body in memory, for
        /// validation, redirects and error bodies.
        case file(URL)
        /// To the caller as it arrives, whatever the status.
        case stream
        /// A request to switch protocols: after a `101` the connection itself (``upgraded(to:)``); any other
        /// status's body in memory.
        case upgrade
    }

    /// What the sink does with a piece of the body a transport can hold back (libcurl's write callback).
    enum Intake {
        /// Taken.
        case taken
        /// Not taken: the stream's reader lags. Pause and hand it over again after the resume call.
        case pause
        /// Not taken: the response stopped (``stopReason`` says why).
        case stop
    }

    /// What the sink keeps, by what it serves: the head, the body (its length, count and where it is kept), and
    /// how the exchange ended.
    struct State {
        var head = Head()
        var body = Body()
        var end = End()
    }

    /// The head: its size held to the limits as it arrives, the final status, the fields (parsed once, later).
    struct Head {
        var lines = 0
        var bytes = 0
        var status: Int?
        var fields: [HTTPHeader]?
        /// The `Set-Cookie` values as the transport received them, before control characters were spaced.
        var setCookies: [String] = []
        var pendingFields: (@Sendable () -> [HTTPHeader])?
    }

    /// The body: its announced length and count, and the one keeper its ``Destination`` uses (``memory``, a
    /// ``download`` file for a `2xx` to a file, the ``stream`` for its reader, or the ``upgrade``d connection).
    struct Body {
        var expected: Int64?
        var total: Int64?
        var contentEncoded = false
        var received: Int64 = 0
        var toFile = false
        var streaming = false
        var memory = Data()
        var download: DownloadFile?
        var stream = StreamBuffer()
        /// The connection after a `101` (``upgraded(to:)``).
        var upgrade: (any UpgradedConnection)?
    }

    /// How the exchange ended and what was recorded of it.
    struct End {
        var stopReason: ResponseError?
        var ended = false
        var metrics: RequestMetrics?
        var observers: [@Sendable (Data) -> Void] = []
        /// How a caching decorator answered (``deliver(_:)`` of a response that says so).
        var cacheUse: CacheUse?
    }

    /// The request the response answers.
    public let request: WireRequest
    /// Where the body goes, as the caller asked.
    public let destination: Destination
    private let progress: (@Sendable (TransferProgress) -> Void)?
    /// Whether anyone reads what the transport measured (the client has event monitors): a transport records
    /// ``RequestMetrics`` only then, so an exchange nobody watches costs no measuring.
    public let collectsMetrics: Bool
    let state = LockedState(State())

    /// A sink that keeps `request`'s response in memory (held to its ``ResponseLimits``): for a decorator that
    /// needs a response whole before it hands it on, ``HTTPTransport/exchange(_:in:)`` with the wrapped transport,
    /// then ``deliver(_:)`` into its caller's sink. (A decorator that needs only the head passes its caller's sink on
    /// and reads ``status`` and ``headers`` after.)
    /// `collectsMetrics` passes on the caller's sink's ``collectsMetrics``, so the wrapped transport measures when the
    /// caller's monitors read what it measured (``record(_:)`` the inner sink's ``metrics`` into the caller's).
    public convenience init(_ request: WireRequest, collectsMetrics: Bool = false) {
        self.init(request, destination: .memory, collectsMetrics: collectsMetrics)
    }

    /// A sink for `request`'s response, its `2xx` body going to `destination`.
    init(
        _ request: WireRequest, destination: Destination = .memory,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, collectsMetrics: Bool = false
    ) {
        self.request = request
        self.destination = destination
        self.progress = progress
        self.collectsMetrics = collectsMetrics
    }

    /// Why the sink stopped the response, if it did: the error the transport should throw.
    public var stopReason: ResponseError? { state.withLock { $0.end.stopReason } }

    // MARK: The head

    /// The final head of the response, its fields in order (repeated names apart where the transport keeps them).
    /// Throws when the head exceeds a limit, cannot frame a body or has a status code outside 100-999
    /// (``ResponseError/malformedResponse(url:reason:)``); the transport then stops.
    public func receiveHead(statusCode: Int, headers: HTTPHeaders) throws(ResponseError) {
        let bytes = headers.reduce(16) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        let lengths = headers.values(for: "Content-Length")
        let fields = headers.fields
        try receiveHead(
            statusCode: statusCode, lineCount: fields.count, byteCount: bytes,
            length: lengths.first.flatMap {
                Int64($0.split(atScalar: ",").first?.trimmingCharacters(in: .whitespaces) ?? "")
            },
            lengthProblem: ResponseFraming.lengthProblem(lengths), transferCoded: headers.contains("Transfer-Encoding"),
            contentEncoded: headers["Content-Encoding"].map(Self.isContentCoding) ?? false
        ) { fields }
    }

    /// Whether a `Content-Encoding` value names a coding (anything but `identity`).
    static func isContentCoding(_ value: String) -> Bool {
        value.trimmingCharacters(in: .whitespaces).lowercased() != "identity"
    }

    /// The final head, from what a transport looked up in it: its `Content-Length` (the first value), or why the
    /// lengths cannot be used; whether a transfer coding or a content coding applies. `fields` parses the head,
    /// later and off the transport's thread. `lineCount` and `byteCount` are held to the head limits here; a
    /// transport that sees the lines one by one checks them itself as they arrive and passes neither.
    func receiveHead(
        statusCode: Int, lineCount: Int? = nil, byteCount: Int? = nil, length: Int64?, lengthProblem: String?,
        transferCoded: Bool, contentEncoded: Bool, fields: @escaping @Sendable () -> [HTTPHeader]
    ) throws(ResponseError) {
        let request = self.request
        let limits = request.limits
        let opened: ResponseError? = state.withLock { state in
            if let lineCount, let byteCount {
                state.head.lines += lineCount
                state.head.bytes += byteCount
                if let exceeded = limits.headViolation(fields: state.head.lines, bytes: state.head.bytes) {
                    return stop(
                        .limitExceeded(url: request.url, limit: exceeded.limit, maximum: exceeded.maximum), &state)
                }
            }
            if let reason = state.end.stopReason { return reason }
            if !(100...999).contains(statusCode) {
                // libcurl and URLSession refuse such status lines themselves; a transport of the app's own may not.
                let reason = "the status code \(statusCode) is not three digits from 100 to 999 (RFC 9110, 15)"
                return stop(.malformedResponse(url: request.url, reason: reason), &state)
            }
            if let lengthProblem { return stop(.malformedResponse(url: request.url, reason: lengthProblem), &state) }
            let length = transferCoded ? nil : length  // the transfer coding framed the body (RFC 9112, 6.3)
            let bodyFollows = request.bodyFollows(status: statusCode)
            state.head.status = statusCode
            state.head.pendingFields = fields
            state.body.contentEncoded = contentEncoded
            state.body.total = contentEncoded ? nil : length
            state.body.expected = bodyFollows && !contentEncoded ? length : nil
            let successful = (200..<300).contains(statusCode)
            if successful, case .file = destination { state.body.toFile = true }
            state.body.streaming = destination == .stream
            if bodyFollows, !state.body.streaming, let length = state.body.expected,
                let exceeded = limits.bodyViolation(length, toFile: state.body.toFile)
            {
                return stop(.limitExceeded(url: request.url, limit: exceeded.limit, maximum: exceeded.maximum), &state)
            }
            if state.body.toFile, case .file(let target) = destination {
                do throws(ResponseError) {
                    state.body.download = try DownloadFile(beside: target)
                } catch {
                    return stop(error, &state)
                }
            } else if !state.body.streaming, let length = state.body.expected, length > 0 {
                // Reserved once, from the announced size, never beyond the limit (in case it lies).
                state.body.memory.reserveCapacity(Int(min(length, limits.bodyBytes)))
            }
            if state.body.streaming { state.body.stream.headArrived() }
            return nil
        }
        if let opened { throw opened }
        if destination == .stream { state.withLock { $0.body.stream.takeWaiters() }.resume() }
    }

    /// Whether the head has arrived.
    var hasHead: Bool { state.withLock { $0.head.status != nil } }

    /// The final head's status code, once it arrived.
    public var status: Int? { state.withLock { $0.head.status } }

    /// The head's fields as the app sees them (control characters spaced, a length beside a transfer coding
    /// dropped), parsed once; empty before the head.
    public var headers: HTTPHeaders { HTTPHeaders(resolvedFields()) }

    /// The `Set-Cookie` field values of the final head exactly as the transport received them: control characters
    /// kept (``headers`` spaces them), so the cookie jar's rules see what the server sent and can refuse it
    /// (RFC 6265bis 5.6 ignores a cookie with a control character; a spaced one would have been stored).
    public var setCookieFields: [String] {
        _ = resolvedFields()
        return state.withLock { $0.head.setCookies }
    }

    /// The parsed fields: the transport's parser runs once, outside the lock.
    func resolvedFields() -> [HTTPHeader] {
        let (fields, pending) = state.withLock { ($0.head.fields, $0.head.fields == nil ? $0.head.pendingFields : nil) }
        if let fields { return fields }
        guard let pending else { return [] }
        let raw = pending()
        let parsed = ResponseFraming.cleaned(raw)
        let setCookies = raw.lazy.filter { HTTPHeaders.same($0.name, "Set-Cookie") }.map(\.value)
        return state.withLock { state in
            if state.head.fields == nil {
                state.head.fields = parsed
                state.head.setCookies = Array(setCookies)
            }
            return state.head.fields ?? parsed
        }
    }

    // MARK: The body

    /// A piece of the body, after content decoding. Throws when it exceeds the body's limit or cannot be written
    /// to the download file; the transport then stops. A streamed body is buffered: a transport that can pause
    /// registers with ``onBackPressure(pause:resume:)``, one that cannot is held to ``ResponseLimits/bodyBytes``
    /// of unread bytes.
    public func receive(_ data: Data) throws(ResponseError) {
        typealias Outcome = (
            failure: ResponseError?, pause: (@Sendable () -> Void)?, waiters: StreamBuffer.Waiters?,
            observers: [@Sendable (Data) -> Void]
        )
        let outcome: Outcome = state.withLock { state in
            if let reason = state.end.stopReason { return (reason, nil, nil, []) }
            guard state.body.streaming else { return (take(data, &state), nil, nil, state.end.observers) }
            let pause = state.body.stream.append(data, limit: request.limits.bodyBytes)
            if let overflow = state.body.stream.overflow {
                let failure = stop(.limitExceeded(url: request.url, limit: .bodyBytes, maximum: overflow), &state)
                return (failure, nil, nil, [])
            }
            state.body.received += Int64(data.count)
            return (nil, pause, state.body.stream.takeWaiters(), state.end.observers)
        }
        if let failure = outcome.failure { throw failure }
        for observer in outcome.observers { observer(data) }
        outcome.waiters?.resume()
        outcome.pause?()
        report()
    }

    /// A piece of the body from a transport that can hold it back: in a stream whose reader lags it is not taken
    /// (``Intake/pause``); the transport pauses until the sink's resume call and hands it over again.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Intake {
        let (intake, waiters, observed): (Intake, StreamBuffer.Waiters?, Bool) = state.withLock { state in
            if state.end.stopReason != nil { return (.stop, nil, false) }
            guard state.body.streaming else {
                return take(bytes, &state) == nil ? (.taken, nil, !state.end.observers.isEmpty) : (.stop, nil, false)
            }
            guard state.body.stream.accepts(more: bytes.count) else { return (.pause, nil, false) }
            state.body.stream.append(Data(bytes))
            state.body.received += Int64(bytes.count)
            return (.taken, state.body.stream.takeWaiters(), !state.end.observers.isEmpty)
        }
        if observed {
            let data = Data(bytes)
            for observer in state.withLock({ $0.end.observers }) { observer(data) }
        }
        waiters?.resume()
        if case .taken = intake { report() }
        return intake
    }

    /// Keeps `bytes` in memory or the download file; the error that stopped the response, or `nil`.
    private func take<Bytes: DataProtocol>(_ bytes: Bytes, _ state: inout State) -> ResponseError? {
        let total = state.body.received + Int64(bytes.count)
        if let exceeded = request.limits.bodyViolation(total, toFile: state.body.download != nil) {
            return stop(.limitExceeded(url: request.url, limit: exceeded.limit, maximum: exceeded.maximum), &state)
        }
        if let download = state.body.download {
            do throws(ResponseError) {
                try download.append(Data(bytes))
            } catch {
                return stop(error, &state)
            }
        } else {
            state.body.memory.append(contentsOf: bytes)
        }
        state.body.received = total
        return nil
    }

    /// Calls `observer` with each piece of the body the sink takes, after content decoding and in order, on the
    /// transport's thread, whatever the destination (memory, a download file, a stream): for a decorator that
    /// records, counts or hashes what passes through on its way to the caller. A piece the sink refused (past a
    /// limit, after a stop) is not observed. Register before passing the sink on; `observer` must not block.
    public func observeBody(_ observer: @escaping @Sendable (Data) -> Void) {
        state.withLock { $0.end.observers.append(observer) }
    }

    /// The body's bytes so far, after decoding.
    var receivedBytes: Int64 { state.withLock { $0.body.received } }

    /// The body's length as announced, when a body of that length follows and can be checked against it (a decorator
    /// that keeps a copy of the body keeps only a whole one).
    public var expectedBytes: Int64? { state.withLock { $0.body.expected } }

    /// Stops the response with `error` (a limit a transport checks itself, such as the decompression ratio).
    func stop(_ error: ResponseError) {
        state.withLock { _ = stop(error, &$0) }
    }

    /// Records `error` as the reason the response stopped, unless one was recorded first; returns the reason.
    func stop(_ error: ResponseError, _ state: inout State) -> ResponseError {
        if state.end.stopReason == nil { state.end.stopReason = error }
        return state.end.stopReason ?? error
    }

    private func report() {
        guard let progress else { return }
        let (received, total) = state.withLock { ($0.body.received, $0.body.total) }
        progress(TransferProgress(direction: .download, completedBytes: received, totalBytes: total))
    }

    /// The request body's progress: `bytes` sent of `total`.
    public func sent(_ bytes: Int64, of total: Int64?) {
        progress?(TransferProgress(direction: .upload, completedBytes: bytes, totalBytes: total ?? request.body.length))
    }

    /// What the transport measured for this exchange (``RequestMetrics``), recorded when the exchange ends,
    /// whether it succeeded or not, when ``collectsMetrics``; the client hands it to its ``EventMonitor``s. A later
    /// record replaces it.
    public func record(_ metrics: RequestMetrics) {
        state.withLock { $0.end.metrics = metrics }
    }

    /// What the transport recorded with ``record(_:)``, if anything.
    public var metrics: RequestMetrics? { state.withLock { $0.end.metrics } }
}
