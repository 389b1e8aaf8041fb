#if canImport(CGirdersCurl)
import CGirdersCompression
import CGirdersCurl
import Foundation
import GirdersSupport
import Glibc
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One exchange on one libcurl easy handle: configures the handle from the ``WireRequest`` and passes libcurl's
/// callbacks to the ``ResponseSink``, which owns the response. What is left here is libcurl's own: the options,
/// the header lines as bytes, the request body, the decompression ratio (only libcurl sees the encoded bytes),
/// pausing, and libcurl's result codes.
///
/// `@unchecked Sendable`: it is configured by the caller before ``CurlEngine`` receives it, and from then on
/// touched only by the multi handle's driver of the moment (libcurl calls back there: the engine's thread, or the
/// caller while that thread is parked, handed between them under the engine's lock), so its mutable state never
/// sees two threads at once. `continuation` is set before the transfer is handed over, under the engine's lock. Once the engine has
/// resumed the caller it touches the transfer no more (but for reading ``phase``), and the caller reads ``outcome``.
final class CurlTransfer: @unchecked Sendable {
    /// Where the transfer stands, as the multi handle's driver sees it.
    enum Phase {
        /// Not yet taken by the engine; `held`: taken, waiting for its origin's scout (``CurlOriginGate``).
        case waiting, held, running, cancelledBeforeStart, finished
    }

    let wire: WireRequest
    let sink: ResponseSink
    let handle: CurlEasyHandle
    /// The request's header lines for libcurl, freed by ``release()``.
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// Where libcurl writes the words of its last error.
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// The request's body (``RequestBodyReader``); `nil` for none.
    let body: RequestBodyReader?
    private var uploaded: Int64 = 0

    // The head, as bytes: the driver only copies the final head's field lines; the sink has them parsed
    // off this thread when they are asked for.
    private var status = 0
    private var head: [UInt8] = []
    private var headComplete = false
    /// The field lines and bytes of every head so far (1xx included), counted here against the limits so the sink
    /// is not asked line by line.
    private var headLines = 0
    private var headBytes = 0
    /// The final head's `Content-Encoding` values, joined, when it names a coding; decoded here
    /// (``CurlContentDecoding``), not by libcurl, so that a coding cut short is an error.
    private var contentEncoding: String?
    /// The decoders, made when the first byte of a coded body arrives.
    private var decoding: CurlContentDecoding?
    /// The decoded body's bytes taken by the sink.
    private var received: Int64 = 0
    /// Set when the sink's stream buffer passed its high-water mark while taking decoded bytes (which cannot be
    /// handed back to libcurl): the next piece from libcurl is held back with `CURL_WRITEFUNC_PAUSE`.
    var pauseRequested = false

    var phase = Phase.waiting
    /// The https origin ``CurlOriginGate`` gates this transfer by (`nil` for plain http).
    let origin: String?
    /// Whether it finds out, for the transfers of its origin that wait, whether the connection multiplexes.
    var isScout = false
    /// Whether libcurl made (or reused) its connection: set by the prerequest callback of a scout.
    var reachedConnection = false
    /// Resumed, with no value, by the engine once ``outcome`` is settled (or by the caller when the engine stopped).
    /// The outcome does not travel in the continuation: the runtime's hand-over between a resume on the engine's
    /// thread and a task that has not suspended yet is invisible to ThreadSanitizer, which then reported the
    /// payload's write and read as a race; ``settle(_:)`` and ``outcome`` order them through an atomic it sees.
    var continuation: UnsafeContinuation<Void, Never>?
    private var settledOutcome: Result<Void, ResponseError>?
    private let settled = Atomic<Bool>(false)
    /// When the engine last saw the transfer make progress (connected, sent or received bytes), for the idle
    /// timeout; set by the engine from ``active`` at its timeout scans, so callbacks read no clock.
    var lastActivity: UInt64 = 0
    /// Whether the transfer made progress since the engine's last timeout scan.
    var active = false
    /// Whether the transfer waits for the app (libcurl holds it paused): a streamed response's reader that lags, or a
    /// streamed request body's producer that has nothing yet. Not idle, never timed out.
    var pausedForApp = false
    let timeoutNanoseconds: UInt64

    init(wire: WireRequest, sink: ResponseSink, handle: CurlEasyHandle) throws(ResponseError) {
        self.wire = wire
        self.sink = sink
        self.handle = handle
        origin = CurlOriginGate.key(of: wire.url)
        timeoutNanoseconds = RequestTime.nanoseconds(wire.timeout)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        if case .none = wire.body {
            body = nil
        } else {
            body = try wire.openBody()
        }
        do {
            try configure()
        } catch {
            release()
            throw error
        }
    }

    deinit {
        release()
        errorBuffer.deallocate()
    }

    /// Frees what the handle points at (the header list, the upload's descriptor and file); the handle itself goes
    /// back to the engine's pool. Called by the engine as the transfer ends, and again, harmlessly, by `deinit`.
    func release() {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        body?.close()
    }

    // MARK: Callbacks (the driver's thread)

    /// Notes progress for the idle timeout (a flag the engine reads at its next scan, no clock read here).
    func touch() {
        active = true
    }

    /// A piece of the body: what libcurl should be told (the bytes taken, `CURL_WRITEFUNC_PAUSE`, or 0 to stop).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        touch()
        if !headComplete { headersEnded() }
        if let contentEncoding { return receiveCoded(bytes, contentEncoding) }
        switch sink.receive(bytes) {
        case .taken:
            received += Int64(bytes.count)
            return bytes.count
        case .pause:
            pausedForApp = true
            return Int(CURL_WRITEFUNC_PAUSE)
        case .stop: return 0
        }
    }

    /// A piece of a coded body: decoded, and each decoded piece handed to the sink, which takes it even past its
    /// stream's high-water mark (the coded bytes are gone once decoded); then the next piece from libcurl waits.
    private func receiveCoded(_ bytes: UnsafeRawBufferPointer, _ encoding: String) -> Int {
        if pauseRequested {
            pausedForApp = true
            return Int(CURL_WRITEFUNC_PAUSE)
        }
        do throws(ResponseError) {
            if decoding == nil {
                decoding = try CurlContentDecoding(contentEncoding: encoding, url: wire.url, limits: wire.limits)
            }
            guard let decoding else { return passThrough(bytes) }
            var stopped = false
            try decoding.decode(bytes) { piece in
                do throws(ResponseError) {
                    try sink.receive(Data(piece))
                    received += Int64(piece.count)
                    return true
                } catch {
                    stopped = true
                    return false
                }
            }
            return stopped ? 0 : bytes.count
        } catch {
            sink.stop(error)
            return 0
        }
    }

    /// A body whose `Content-Encoding` names only `identity`.
    private func passThrough(_ bytes: UnsafeRawBufferPointer) -> Int {
        contentEncoding = nil
        return receive(bytes)
    }

    /// One header line, CRLF included; `false` stops the transfer (the heads exceed a limit, or the final head
    /// cannot frame a body).
    func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        if head.isEmpty, status == 0 { touch() }  // the head has begun to arrive; the body's pieces count from here
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        let isStatusLine =
            end >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50
            && line[4] == 0x2F  // "HTTP/"
        headBytes += line.count
        if end > 0, !isStatusLine { headLines += 1 }
        if let exceeded = wire.limits.headViolation(fields: headLines, bytes: headBytes) {
            sink.stop(.limitExceeded(url: wire.url, limit: exceeded.limit, maximum: exceeded.maximum))
            return false
        }
        if end == 0 {
            guard !(100..<200).contains(status) else { return true }
            return headersEnded()
        }
        if isStatusLine {
            // A new response (after 1xx, or a proxy's answer): start over, with room for a typical head at once.
            touch()
            status = Self.statusCode(in: line, end: end)
            head.removeAll(keepingCapacity: true)
            head.reserveCapacity(512)
            headComplete = false
            return true
        }
        head.append(contentsOf: line)
        return true
    }

    /// The three-digit code after "HTTP/x[.y] ", or 0.
    private static func statusCode(in line: UnsafeRawBufferPointer, end: Int) -> Int {
        var index = 5
        while index < end, line[index] != 0x20 { index += 1 }
        while index < end, line[index] == 0x20 { index += 1 }
        var code = 0
        var digits = 0
        while index < end, digits < 4, (0x30...0x39).contains(line[index]) {
            code = code * 10 + Int(line[index] - 0x30)
            digits += 1
            index += 1
        }
        return digits == 3 ? code : 0
    }

    /// The final head is complete: hands the sink what it needs to frame the body, looked up at the byte level
    /// (`Content-Length`, `Transfer-Encoding`, `Content-Encoding`); the fields are parsed when the sink is asked
    /// for them, off this thread.
    @discardableResult
    private func headersEnded() -> Bool {
        guard !headComplete else { return true }
        headComplete = true
        let lookup = CurlHead(head)
        let (firstLength, moreLengths) = lookup.firstField("content-length")
        var length = firstLength?.integer
        var problem: String?
        if moreLengths || (firstLength != nil && length == nil && firstLength?.folded == false) {
            // Rare: several fields, a list, or no plain number. Checked with strings, off the common path.
            let values = lookup.fields("content-length").map { String(decoding: $0.bytes, as: UTF8.self) }
            problem = ResponseFraming.lengthProblem(values)
            length = values.first?.split(atScalar: ",").first.flatMap {
                Int64($0.trimmingCharacters(in: .whitespaces))
            }
        }
        let transferCoded = lookup.field("transfer-encoding") != nil
        if length != nil, transferCoded {
            // The transfer coding framed it (RFC 9112 section 6.3), and the connection is closed afterwards rather
            // than reused: the bytes the two framings disagree about must not become the next answer. libcurl reads
            // the option when the transfer is done, so setting it now, from its header callback, takes effect.
            _ = girders_easy_set_long(handle.pointer, CURLOPT_FORBID_REUSE, 1)
        }
        let codings = lookup.fields("content-encoding").map { String(decoding: $0.bytes, as: UTF8.self) }
            .joined(separator: ",")
        contentEncoding = codings.isEmpty || ResponseSink.isContentCoding(codings) == false ? nil : codings
        let contentEncoded = contentEncoding != nil
        let bytes = head
        do {
            try sink.receiveHead(
                statusCode: status, length: length, lengthProblem: problem, transferCoded: transferCoded,
                contentEncoded: contentEncoded
            ) { CurlHead.fields(in: bytes) }
            return true
        } catch {
            return false
        }
    }

    /// Fills `buffer` with the next bytes of the body; 0 at the end; `CURL_READFUNC_PAUSE` while a stream's
    /// producer has nothing yet; `CURL_READFUNC_ABORT` when the body cannot be read.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        touch()
        var count = 0
        switch body?.read(into: buffer) ?? .end {
        case .bytes(let taken): count = taken
        case .end: count = 0
        case .wait:
            pausedForApp = true
            return Int(CURL_READFUNC_PAUSE)
        case .failed(let error):
            sink.stop(error)
            return Int(CURL_READFUNC_ABORT)
        }
        uploaded += Int64(count)
        let length = body?.length ?? 0
        if count > 0 || length == 0 { sink.sent(uploaded, of: body?.length) }
        return count
    }

    /// libcurl wants the body again from `offset`: it sends the request once more on a new connection because a
    /// reused one closed before any answer came. Allowed from the start, for a body that may be sent again
    /// (``RequestBodyReader/rewind()``: from memory or a file, with an idempotent method or a request that allows
    /// retries, RFC 9110, 9.2.2). Otherwise libcurl fails with `CURLE_SEND_FAIL_REWIND`, which is
    /// ``ResponseError/interrupted(url:receivedBytes:expectedBytes:reason:)`` saying so.
    func rewind(to offset: Int64) -> Int32 {
        guard offset == 0 else { return CURL_SEEKFUNC_CANTSEEK }
        guard let body else { return CURL_SEEKFUNC_OK }
        guard body.canRewind else { return CURL_SEEKFUNC_CANTSEEK }
        guard body.rewind() else { return CURL_SEEKFUNC_FAIL }
        uploaded = 0
        return CURL_SEEKFUNC_OK
    }

    // MARK: Ending

    /// The transfer ended with libcurl's `code` (or was stopped with `stop`): the error, if it failed. The sink's
    /// own reason wins (a limit, a write error), then `stop`, then libcurl's.
    func finish(_ code: CURLcode, stop: ResponseError? = nil) -> Result<Void, ResponseError> {
        if phase == .running, sink.collectsMetrics { sink.record(measuredMetrics()) }
        phase = .finished
        if !headComplete, status != 0, code == CURLE_OK, stop == nil { headersEnded() }
        if let reason = sink.stopReason ?? stop { return .failure(reason) }
        guard code == CURLE_OK else {
            return .failure(
                Self.error(code, errorBuffer, wire.url, received, sink.expectedBytes, headComplete: headComplete))
        }
        do throws(ResponseError) {
            try decoding?.finish()
        } catch {
            return .failure(error)
        }
        return .success(())
    }

    /// Records how the transfer ended, before its caller is resumed; called once.
    func settle(_ outcome: Result<Void, ResponseError>) {
        settledOutcome = outcome
        settled.store(true, ordering: .releasing)
    }

    /// How the transfer ended, once its caller has been resumed.
    var outcome: Result<Void, ResponseError> {
        guard settled.load(ordering: .acquiring), let settledOutcome else {
            return .failure(.transport(url: wire.url, code: 0, reason: "the transfer ended without an outcome"))
        }
        return settledOutcome
    }
}

#endif
