#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation
import Glibc
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on one libcurl easy handle: configures the handle, receives libcurl's callbacks, and builds the
/// outcome.
///
/// `@unchecked Sendable`: it is configured by the caller before ``CurlEngine`` receives it, and from then on
/// touched only on the engine's thread (libcurl calls back there), so its mutable state never sees two threads at
/// once. `continuation` is set before the transfer is handed over, under the engine's lock. Once the engine has
/// resumed the caller it touches the transfer no more (but for reading ``phase``), and the caller builds the
/// ``response()`` from it.
final class CurlTransfer: @unchecked Sendable {
    /// Where the transfer stands, as the engine's thread sees it.
    enum Phase {
        case waiting, running, cancelledBeforeStart, finished
    }

    let request: Request
    let handle: CurlEasyHandle
    private let options: TransferOptions
    private let cookieJar: (any CookieJar)?
    private let wire: WireRequest
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    // Upload: the body in memory, or a file read in place.
    private let uploadData: Data?
    private let upload: UploadFile?
    private var uploadDescriptor: Int32 = -1
    private let uploadLength: Int64
    private var uploaded: Int64 = 0

    // Response.
    private var status = 0
    /// The field lines of the final response's head as they arrived (line endings included): the engine's thread
    /// only copies them; the caller parses them into fields in ``response()``.
    private var head: [UInt8] = []
    /// The bytes and field lines of every head received (1xx included), bounded by ``limits``.
    private var headerBytes = 0
    private var headerFields = 0
    private let limits: ResponseLimits
    private var headComplete = false
    /// The final head names a content coding: libcurl decodes the body, and the decompression ratio is watched.
    private var contentEncoded = false
    private var body = Data()
    private var download: DownloadFile?
    private var received: Int64 = 0
    private var expected: Int64?
    private var failure: ResponseError?

    /// Set (releasing) by the engine's thread once a successful transfer's response is complete, read (acquiring)
    /// by ``response()`` on the caller's: the continuation orders the two as well, but this is the order
    /// ThreadSanitizer can see. An atomic, not a lock: a lock object per transfer measured about 4% slower at 16 in
    /// flight.
    private let handedOver = Atomic<Bool>(false)

    var phase = Phase.waiting
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
    let timeoutNanoseconds: UInt64

    init(
        request: Request, options: TransferOptions, cookieJar: (any CookieJar)?, handle: CurlEasyHandle
    ) throws(ResponseError) {
        self.request = request
        self.options = options
        self.cookieJar = cookieJar
        self.handle = handle
        self.limits = request.effectiveLimits
        let wire = try WireRequest(request)
        self.wire = wire
        let seconds =
            wire.timeout.isFinite && wire.timeout > 0 ? min(wire.timeout, 31_536_000) : WireRequest.defaultTimeout
        timeoutNanoseconds = UInt64(seconds * 1_000_000_000)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        if let source = request.bodySource {
            upload = try source.uploadFile()
            uploadData = nil
            uploadLength = source.length ?? 0
        } else {
            upload = nil
            uploadData = wire.body
            uploadLength = Int64(wire.body?.count ?? 0)
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
        if uploadDescriptor >= 0 { close(uploadDescriptor) }
        uploadDescriptor = -1
        upload?.release()
    }

    // MARK: Configuring

    private func configure() throws(ResponseError) {
        let easy = handle.pointer
        let context = Unmanaged.passUnretained(self).toOpaque()
        var code = girders_easy_set_string(easy, CURLOPT_URL, wire.url.absoluteString)
        func set(_ option: CURLoption, _ value: Int) {
            if code == CURLE_OK { code = girders_easy_set_long(easy, option, value) }
        }
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PATH_AS_IS, 1)  // dot segments were refused when the request was built; send the path as it is
        set(CURLOPT_FOLLOWLOCATION, 0)  // HTTPClient follows redirects, the same way for every transport
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(min(timeoutNanoseconds / 1_000_000, UInt64(Int32.max))))
        set(CURLOPT_TCP_NODELAY, 1)
        // A second wall behind WireRequest's check: libcurl speaks http and https only, for this URL and any
        // redirect (HTTPClient follows redirects itself, so libcurl never should). Before 7.85.0, the bit masks.
        for (option, fallback) in [
            (CURLOPT_PROTOCOLS_STR, CURLOPT_PROTOCOLS), (CURLOPT_REDIR_PROTOCOLS_STR, CURLOPT_REDIR_PROTOCOLS),
        ]
        where code == CURLE_OK {
            code = girders_easy_set_string(easy, option, "http,https")
            if code == CURLE_UNKNOWN_OPTION {
                code = girders_easy_set_long(easy, fallback, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS))
            }
        }
        if code == CURLE_OK { code = girders_easy_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer) }
        if code == CURLE_OK {
            code = girders_easy_set_data_callback(
                easy, CURLOPT_WRITEFUNCTION, CURLOPT_WRITEDATA, curlWrite, context)
        }
        if code == CURLE_OK {
            code = girders_easy_set_data_callback(
                easy, CURLOPT_HEADERFUNCTION, CURLOPT_HEADERDATA, curlHeader, context)
        }
        try configureMethodAndBody(&code, context)
        try configureHeaders(&code)
        try CurlTLS.configure(easy, request.tlsCredentials, &code)
        guard code == CURLE_OK else {
            throw .transport(url: wire.url, code: 0, reason: "libcurl refused an option: \(Self.message(code, nil))")
        }
    }

    private func configureMethodAndBody(
        _ code: inout CURLcode, _ context: UnsafeMutableRawPointer
    ) throws(ResponseError) {
        let easy = handle.pointer
        let method = wire.method
        let sendsBody = upload != nil || uploadData != nil || ["POST", "PUT", "PATCH"].contains(method)
        if method == "HEAD" {
            if code == CURLE_OK { code = girders_easy_set_long(easy, CURLOPT_NOBODY, 1) }
        } else if sendsBody {
            if let upload {
                uploadDescriptor = open(upload.url.path, O_RDONLY | O_CLOEXEC)
                guard uploadDescriptor >= 0 else {
                    throw .fileError(path: upload.url.path, reason: FileIO.lastError())
                }
            }
            // An upload with a known length: Content-Length, never chunked.
            if code == CURLE_OK { code = girders_easy_set_long(easy, CURLOPT_UPLOAD, 1) }
            if code == CURLE_OK {
                code = girders_easy_set_offset(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(uploadLength))
            }
            if code == CURLE_OK {
                code = girders_easy_set_data_callback(easy, CURLOPT_READFUNCTION, CURLOPT_READDATA, curlRead, context)
            }
        }
        if method != "GET", method != "HEAD", code == CURLE_OK {
            code = girders_easy_set_string(easy, CURLOPT_CUSTOMREQUEST, method)
        }
    }

    private func configureHeaders(_ code: inout CURLcode) throws(ResponseError) {
        var lines: [String] = []
        var hasAcceptEncoding = false
        var hasCookie = false
        var hasAccept = false
        for field in wire.headers {
            let name = field.name
            // libcurl writes these from the body it sends.
            if HTTPHeaders.same(name, "Content-Length") || HTTPHeaders.same(name, "Transfer-Encoding") { continue }
            if HTTPHeaders.same(name, "Accept-Encoding") { hasAcceptEncoding = true }
            if HTTPHeaders.same(name, "Cookie") { hasCookie = true }
            if HTTPHeaders.same(name, "Accept") { hasAccept = true }
            // "Name;" sends a field with an empty value; "Name:" would remove it.
            lines.append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        if !hasCookie, let header = try CookieJars.requestField(for: wire.url, from: cookieJar) {
            lines.append("Cookie: " + header)
        }
        lines.append("Expect:")  // no 100-continue round trip before a body
        if !hasAccept { lines.append("Accept: */*") }
        for line in lines {
            guard let appended = curl_slist_append(headerList, line) else {
                throw .transport(url: wire.url, code: 0, reason: "libcurl could not store a header")
            }
            headerList = appended
        }
        let easy = handle.pointer
        if code == CURLE_OK { code = girders_easy_set_pointer(easy, CURLOPT_HTTPHEADER, headerList) }
        // Decoded as URLSession decodes: gzip and deflate, unless the request chose its own encodings.
        if !hasAcceptEncoding, code == CURLE_OK {
            code = girders_easy_set_string(easy, CURLOPT_ACCEPT_ENCODING, "gzip, deflate")
        }
    }

    // MARK: Callbacks (the engine's thread)

    /// Notes progress for the idle timeout (a flag the engine reads at its next scan, no clock read here).
    func touch() {
        active = true
    }

    /// A piece of the body; returns what it took (less stops the transfer with a write error).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        touch()
        if !headComplete { headersEnded() }
        if failure != nil { return 0 }
        if let exceeded = limits.bodyViolation(received + Int64(bytes.count), toFile: download != nil) {
            failure = .limitExceeded(url: wire.url, limit: exceeded.limit, maximum: exceeded.maximum)
            return 0
        }
        if contentEncoded, let ratio = limits.ratioToCheck(decodedBytes: received + Int64(bytes.count)) {
            // libcurl counts the body's bytes as they came over the wire, before it decoded them.
            var wire: curl_off_t = 0
            if girders_easy_get_offset(handle.pointer, CURLINFO_SIZE_DOWNLOAD_T, &wire) == CURLE_OK, wire > 0,
                (received + Int64(bytes.count)) / Int64(wire) > ratio
            {
                failure = .limitExceeded(url: self.wire.url, limit: .decompressionRatio, maximum: ratio)
                return 0
            }
        }
        do throws(ResponseError) {
            if let download {
                try download.append(Data(bytes))
            } else {
                body.append(contentsOf: bytes)
            }
        } catch {
            failure = error
            return 0
        }
        received += Int64(bytes.count)
        options.progress?(TransferProgress(direction: .download, completedBytes: received, totalBytes: expected))
        return bytes.count
    }

    /// One header line, CRLF included; `false` stops the transfer (the head exceeds a limit, or announces a body
    /// larger than the limit).
    func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        if headerBytes == 0 { touch() }  // the head has begun to arrive; the body's pieces count from here on
        headerBytes += line.count
        guard headerBytes <= limits.headerBytes else {
            return stop(.limitExceeded(url: wire.url, limit: .headerBytes, maximum: Int64(limits.headerBytes)))
        }
        return parseHeader(line) && failure == nil
    }

    /// Records why the transfer stops; `false`, for a callback to return.
    private func stop(_ error: ResponseError) -> Bool {
        failure = error
        return false
    }

    /// Takes one line at the byte level: a status line starts a new head, a field line (or a continuation) is kept
    /// as it came, the blank line ends the head. No string work on the engine's thread, which runs this for every
    /// line of every response.
    private func parseHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        if end == 0 {
            if !(100..<200).contains(status) { headersEnded() }
            return true
        }
        if end >= 5, line[0] == 0x48, line[1] == 0x54, line[2] == 0x54, line[3] == 0x50, line[4] == 0x2F {  // "HTTP/"
            // A new response (after 1xx, or a proxy's answer): start over.
            touch()
            status = Self.statusCode(in: line, end: end)
            head.removeAll(keepingCapacity: true)
            headComplete = false
            return true
        }
        head.append(contentsOf: line)
        headerFields += 1
        return headerFields <= limits.headerFields
            || stop(.limitExceeded(url: wire.url, limit: .headerFields, maximum: Int64(limits.headerFields)))
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

    /// The head is complete: check its framing and choose where the body goes. Only `Content-Length`,
    /// `Transfer-Encoding` and `Content-Encoding` are looked up here, at the byte level; the fields are parsed, and
    /// cookies stored, by the caller in ``response()``. A `Content-Length` beyond the body's limit fails the transfer
    /// here, before any of the body.
    private func headersEnded() {
        guard !headComplete else { return }
        headComplete = true
        let lookup = CurlHead(head)
        let encoded = lookup.field("content-encoding").map { !$0.equalsLowercased("identity") } ?? false
        contentEncoded = encoded
        let lengths = lookup.fields("content-length")
        var length = lengths.first?.integer
        if lengths.count > 1 || (!lengths.isEmpty && length == nil && !lengths[0].folded) {
            // Rare: several fields, a list, or no plain number. Checked with strings, off the common path.
            let values = lengths.map { String(decoding: $0.bytes, as: UTF8.self) }
            if let problem = ResponseFraming.lengthProblem(values) {
                failure = .malformedResponse(url: wire.url, reason: problem)
                return
            }
            length = values.first?.split(separator: ",").first.flatMap {
                Int64($0.trimmingCharacters(in: .whitespaces))
            }
        }
        if length != nil, lookup.field("transfer-encoding") != nil {
            // The transfer coding framed it (RFC 9112 section 6.3), and the connection is closed afterwards rather
            // than reused: the bytes the two framings disagree about must not become the next answer. libcurl reads
            // the option when the transfer is done, so setting it now, from its header callback, takes effect.
            length = nil
            _ = girders_easy_set_long(handle.pointer, CURLOPT_FORBID_REUSE, 1)
        }
        expected = encoded ? nil : length.flatMap { $0 >= 0 ? $0 : nil }
        // No body follows a HEAD, a 204 or a 304, whatever Content-Length says (RFC 9110, section 8.6).
        let bodyFollows = wire.method != "HEAD" && status != 204 && status != 304
        let toFile = options.downloadDestination != nil && (200..<300).contains(status)
        if bodyFollows, let length = encoded ? nil : length,
            let exceeded = limits.bodyViolation(length, toFile: toFile)
        {
            failure = .limitExceeded(url: wire.url, limit: exceeded.limit, maximum: exceeded.maximum)
            return
        }
        if let destination = options.downloadDestination, toFile {
            do throws(ResponseError) {
                download = try DownloadFile(beside: destination)
            } catch {
                failure = error
            }
        } else if bodyFollows, let expected, expected > 0 {
            // Written once into a buffer of the announced size (never beyond the limit, in case it lies).
            body.reserveCapacity(Int(min(expected, limits.bodyBytes)))
        }
    }

    /// Fills `buffer` with the next bytes of the body; 0 at the end; `CURL_READFUNC_ABORT` on a read error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        touch()
        var count = 0
        if let uploadData {
            let start = Int(uploaded)
            count = min(buffer.count, uploadData.count - start)
            if count > 0 {
                uploadData.withUnsafeBytes { source in
                    guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
                    to.copyMemory(from: from + start, byteCount: count)
                }
            }
        } else if uploadDescriptor >= 0 {
            while true {
                count = posixRead(uploadDescriptor, buffer.baseAddress, buffer.count)
                if count < 0, errno == EINTR { continue }
                break
            }
            if count < 0 {
                failure = .fileError(path: upload?.url.path ?? "", reason: FileIO.lastError())
                return Int(CURL_READFUNC_ABORT)
            }
        }
        uploaded += Int64(count)
        if count > 0 || uploadLength == 0 {
            options.progress?(TransferProgress(direction: .upload, completedBytes: uploaded, totalBytes: uploadLength))
        }
        return count
    }

    // MARK: Ending

    /// The transfer ended with libcurl's `code` (or was stopped with `stop`): settles the outcome (the download
    /// file kept or deleted); on success the caller then builds the ``response()``.
    func finish(_ code: CURLcode, stop: ResponseError? = nil) -> Result<Void, ResponseError> {
        phase = .finished
        var failure = stop ?? self.failure
        if failure == nil, code != CURLE_OK { failure = Self.error(code, errorBuffer, wire.url, received, expected) }
        if failure == nil, status == 0 {
            failure = .transport(url: wire.url, code: 0, reason: "the response is not HTTP")
        }
        if !headComplete, failure == nil { headersEnded() }
        if let download {
            if failure == nil {
                do throws(ResponseError) { try download.finish() } catch { failure = error }
            } else {
                download.discard()  // failed, timed out or cancelled: no partial file stays behind
            }
        }
        if let failure { return .failure(failure) }
        handedOver.store(true, ordering: .releasing)
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

    /// The response of a transfer that finished successfully, its head parsed into fields. Called by the caller
    /// after the engine resumed it, off the engine's thread.
    func response() -> Result<HTTPResponse, ResponseError> {
        guard handedOver.load(ordering: .acquiring) else {
            return .failure(.transport(url: wire.url, code: 0, reason: "the transfer ended without a response"))
        }
        let fields = CurlHead.fields(in: head)
        // Cookies are stored here, on the caller's thread, never on the engine's: a storage that writes a file per
        // cookie (HTTPCookieStorage.shared on Linux) took 26 s for 1,000 of them, stalling every other transfer.
        if let cookieJar {
            let setCookies = fields.filter { HTTPHeaders.same($0.name, "Set-Cookie") }.map(\.value)
            if !setCookies.isEmpty { cookieJar.store(setCookies, from: wire.url) }
        }
        let response = HTTPResponse(
            statusCode: status, headers: HTTPHeaders(ResponseFraming.cleaned(fields)), body: body,
            url: wire.url, request: request)
        return .success(download.map { response.replacingBody(with: $0.url) } ?? response)
    }
}

/// POSIX `read`, named apart from the transfer's own `read(into:)`.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    Glibc.read(descriptor, buffer, count)
}

// libcurl's callbacks: C functions that find their transfer through the context pointer, which is the unretained
// transfer, kept alive by the engine's table of running transfers until libcurl is done with the handle.

private let curlWrite: girders_curl_data_callback = { buffer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receive(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let curlHeader: girders_curl_data_callback = { buffer, size, count, context in
    guard let context else { return 0 }
    let taken = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        .receiveHeader(UnsafeRawBufferPointer(start: buffer, count: size * count))
    return taken ? size * count : 0
}

private let curlRead: girders_curl_data_callback = { buffer, size, count, context in
    guard let context else { return Int(CURL_READFUNC_ABORT) }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        .read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}
#endif
