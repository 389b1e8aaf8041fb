#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation
import Glibc

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a ``CurlTransfer`` sets up its easy handle: the options from the ``WireRequest`` (the URL, the protocols
/// libcurl may speak, the method and the body's read and seek callbacks, the header lines, TLS), and libcurl's C
/// callbacks, which find their transfer through the context pointer.
extension CurlTransfer {
    /// A second wall behind WireRequest's check: libcurl speaks http and https only, for the URL and any redirect
    /// (HTTPClient follows redirects itself, so libcurl never should). Before libcurl 7.85.0, the bit masks. Leaves
    /// `code` as it is unless it is `CURLE_OK`.
    static func allowHTTPOnly(_ easy: UnsafeMutableRawPointer, _ code: inout CURLcode) {
        func allow(_ option: CURLoption, fallback: CURLoption) {
            guard code == CURLE_OK else { return }
            code = httpAndHTTPS.withUnsafeBufferPointer { girders_easy_set_string(easy, option, $0.baseAddress) }
            if code == CURLE_UNKNOWN_OPTION {
                code = girders_easy_set_long(easy, fallback, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS))
            }
        }
        allow(CURLOPT_PROTOCOLS_STR, fallback: CURLOPT_PROTOCOLS)
        allow(CURLOPT_REDIR_PROTOCOLS_STR, fallback: CURLOPT_REDIR_PROTOCOLS)
    }

    /// `http,https` as a C string made once (libcurl copies it): a literal would be copied into a new array for
    /// each transfer, as a string short enough to be stored inline has no C string of its own.
    private static let httpAndHTTPS = Array("http,https".utf8CString)

    /// Sets every option of the easy handle from the lowered request; throws when libcurl refuses one or the
    /// request needs what libcurl cannot do (a `URLRequest` edit).
    func configure() throws(ResponseError) {
        let easy = handle.pointer
        let context = Unmanaged.passUnretained(self).toOpaque()
        // A native string's own bytes, where passing the string itself copied it into a new array.
        var url = wire.url.absoluteString
        url.makeContiguousUTF8()
        var code = url.withCString { girders_easy_set_string(easy, CURLOPT_URL, $0) }
        func set(_ option: CURLoption, _ value: Int) {
            if code == CURLE_OK { code = girders_easy_set_long(easy, option, value) }
        }
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PATH_AS_IS, 1)  // dot segments were refused when the request was built; send the path as it is
        set(CURLOPT_FOLLOWLOCATION, 0)  // HTTPClient follows redirects, the same way for every transport
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(min(timeoutNanoseconds / 1_000_000, UInt64(Int32.max))))
        set(CURLOPT_TCP_NODELAY, 1)
        // CURLOPT_PIPEWAIT is the engine's to set, per origin, when the transfer starts (CurlOriginGate).
        Self.allowHTTPOnly(easy, &code)
        if code == CURLE_OK { code = girders_easy_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer) }
        if code == CURLE_OK {
            code = girders_easy_set_data_callback(easy, CURLOPT_WRITEFUNCTION, CURLOPT_WRITEDATA, curlWrite, context)
        }
        if code == CURLE_OK {
            code = girders_easy_set_data_callback(
                easy, CURLOPT_HEADERFUNCTION, CURLOPT_HEADERDATA, curlHeader, context)
        }
        try configureMethodAndBody(&code, context)
        try configureHeaders(&code)
        try CurlTLS.configure(easy, wire.tlsCredentials, &code)
        guard code == CURLE_OK else {
            throw .transport(url: wire.url, code: 0, reason: "libcurl refused an option: \(Self.message(code, nil))")
        }
    }

    private func configureMethodAndBody(
        _ code: inout CURLcode, _ context: UnsafeMutableRawPointer
    ) throws(ResponseError) {
        let easy = handle.pointer
        let method = wire.method
        let sendsBody = body != nil || method == "POST" || method == "PUT" || method == "PATCH"
        if method == "HEAD" {
            if code == CURLE_OK { code = girders_easy_set_long(easy, CURLOPT_NOBODY, 1) }
        } else if sendsBody {
            // A known length is sent as Content-Length; a stream of unknown length with chunked encoding.
            if code == CURLE_OK { code = girders_easy_set_long(easy, CURLOPT_UPLOAD, 1) }
            // No body at all is a length of 0; a stream of unknown length none (chunked).
            if code == CURLE_OK, let length = body == nil ? 0 : body?.length {
                code = girders_easy_set_offset(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(length))
            }
            if code == CURLE_OK {
                code = girders_easy_set_data_callback(easy, CURLOPT_READFUNCTION, CURLOPT_READDATA, curlRead, context)
            }
            if code == CURLE_OK { code = girders_easy_set_seek_callback(easy, curlSeek, context) }
        }
        if method != "GET", method != "HEAD", code == CURLE_OK {
            code = girders_easy_set_string(easy, CURLOPT_CUSTOMREQUEST, method)
        }
    }

    private func configureHeaders(_ code: inout CURLcode) throws(ResponseError) {
        if let edited = wire.otherEdits {
            // URLRequest properties libcurl has no equivalent for: refused, never silently ignored.
            throw .unsupported(
                feature: "a URLRequest edit of \(edited.names.joined(separator: ", ")) on CurlTransport; "
                    + "use URLSessionTransport for it")
        }
        var stored = true
        /// Appends `name`, `separator` and `value` as one line to libcurl's list (which copies it), written into a
        /// temporary buffer (on the stack when small): building a `String` for each line, or passing one short
        /// enough to be stored inline, cost an allocation a field.
        func append(_ name: String, _ separator: StaticString = "", _ value: String = "") {
            guard stored else { return }
            // Invariant: the buffer holds exactly the three parts' UTF-8 and the terminating NUL.
            let count = name.utf8.count + separator.utf8CodeUnitCount + value.utf8.count + 1
            let appended = withUnsafeTemporaryAllocation(of: CChar.self, capacity: count) { line in
                var end = 0
                func write(_ bytes: some Sequence<UInt8>) {
                    for byte in bytes {
                        line[end] = CChar(bitPattern: byte)
                        end += 1
                    }
                }
                write(name.utf8)
                separator.withUTF8Buffer { write($0) }
                write(value.utf8)
                line[end] = 0
                return curl_slist_append(headerList, line.baseAddress)
            }
            guard let appended else {
                stored = false
                return
            }
            headerList = appended
        }
        var hasAcceptEncoding = false
        var hasAccept = false
        for field in wire.headers {
            let name = field.name
            // libcurl writes these from the body it sends.
            if HTTPHeaders.same(name, "Content-Length") || HTTPHeaders.same(name, "Transfer-Encoding") { continue }
            if HTTPHeaders.same(name, "Accept-Encoding") { hasAcceptEncoding = true }
            if HTTPHeaders.same(name, "Accept") { hasAccept = true }
            // "Name;" sends a field with an empty value; "Name:" would remove it.
            if field.value.isEmpty { append(field.name, ";") } else { append(field.name, ": ", field.value) }
        }
        append("Expect:")  // no 100-continue round trip before a body
        if !hasAccept { append("Accept: */*") }
        // The codings whose decoders loaded (CurlContentDecoding), unless the request named its own; a coded response
        // is decoded here either way, as URLSession decodes it.
        if !hasAcceptEncoding, !CurlContentDecoding.acceptEncoding.isEmpty {
            append(CurlContentDecoding.acceptEncodingField)
        }
        guard stored else { throw .transport(url: wire.url, code: 0, reason: "libcurl could not store a header") }
        let easy = handle.pointer
        if code == CURLE_OK { code = girders_easy_set_pointer(easy, CURLOPT_HTTPHEADER, headerList) }
        // libcurl hands over the body as it came: CurlContentDecoding decodes it.
        if code == CURLE_OK { code = girders_easy_set_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0) }
    }

    // MARK: Starting (the engine's thread)

    /// Sets what ``CurlOriginGate`` decided, just before the engine adds the transfer to libcurl: whether to wait for
    /// a connection that can multiplex, and for a scout, the prerequest callback that tells when its connection is
    /// made.
    func prepareStart(pipeWait: Bool) {
        let easy = handle.pointer
        _ = girders_easy_set_long(easy, CURLOPT_PIPEWAIT, pipeWait ? 1 : 0)
        if isScout {
            _ = girders_easy_set_prereq_callback(easy, curlPrereq, Unmanaged.passUnretained(self).toOpaque())
        }
    }
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

private let curlPrereq: girders_curl_prereq_callback = { context, _, _, _, _ in
    if let context { Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().reachedConnection = true }
    return CURL_PREREQFUNC_OK
}

private let curlSeek: girders_curl_seek_callback = { context, offset, origin in
    guard let context, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().rewind(to: Int64(offset))
}

private let curlRead: girders_curl_data_callback = { buffer, size, count, context in
    guard let context else { return Int(CURL_READFUNC_ABORT) }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        .read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}
#endif
