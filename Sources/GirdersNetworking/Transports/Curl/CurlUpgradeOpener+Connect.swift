#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation
import GirdersSupport

extension CurlUpgradeOpener {
    /// A connection libcurl made and handed over.
    struct Connected {
        /// The easy handle that owns the connection (``CurlSocketChannel`` frees it).
        let easy: UnsafeMutableRawPointer
        let socket: Int32
        /// What libcurl measured of the connect (name lookup, TCP, TLS).
        let metrics: RequestMetrics
    }

    /// Whether the caller gave up; read by libcurl's progress callback on the connecting thread.
    fileprivate final class Abort: Sendable {
        let flag = AtomicWord(0)
    }

    /// Connects (`CURLOPT_CONNECT_ONLY`) on a thread of its own, as `curl_easy_perform` blocks until the connection
    /// is made or fails.
    static func connect(_ wire: WireRequest) async throws(ResponseError) -> Connected {
        if let failure = CurlTransport.libraryFailure { throw .transport(url: wire.url, code: 0, reason: failure) }
        guard let easy = curl_easy_init() else {
            throw .transport(url: wire.url, code: 0, reason: "libcurl could not make an easy handle")
        }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        let abort = Abort()
        let context = Unmanaged.passRetained(abort)
        defer {
            _ = girders_easy_set_pointer(easy, CURLOPT_ERRORBUFFER, nil)
            errorBuffer.deallocate()
            context.release()
        }
        var code = CURLE_OK
        do {
            try configure(easy, wire, errorBuffer, context.toOpaque(), &code)
        } catch {
            curl_easy_cleanup(easy)
            throw error
        }
        let handle = CurlEasyHandle(pointer: easy)
        code = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CURLcode, Never>) in
                Thread {
                    girders_name_current_thread("girders-ws-connect")
                    continuation.resume(returning: curl_easy_perform(handle.pointer))
                }.start()
            }
        } onCancel: {
            abort.flag.store(1)
        }
        let socket = code == CURLE_OK ? girders_easy_active_socket(easy) : -1
        guard code == CURLE_OK, socket >= 0 else {
            let error =
                Task.isCancelled
                ? ResponseError.cancelled(url: wire.url)
                : CurlTransfer.error(code, errorBuffer, wire.url, 0, nil, headComplete: false)
            curl_easy_cleanup(easy)
            throw error
        }
        return Connected(easy: easy, socket: socket, metrics: metrics(easy, wire.url))
    }

    private static func configure(
        _ easy: UnsafeMutableRawPointer, _ wire: WireRequest, _ errorBuffer: UnsafeMutablePointer<CChar>,
        _ context: UnsafeMutableRawPointer, _ code: inout CURLcode
    ) throws(ResponseError) {
        code = girders_easy_set_string(easy, CURLOPT_URL, wire.url.absoluteString)
        func set(_ option: CURLoption, _ value: Int) {
            if code == CURLE_OK { code = girders_easy_set_long(easy, option, value) }
        }
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_CONNECT_ONLY, 1)
        set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))  // ALPN: http/1.1 only, for the upgrade
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(min(wire.timeout, RequestTime.longest) * 1000))
        set(CURLOPT_TCP_NODELAY, 1)
        CurlTransfer.allowHTTPOnly(easy, &code)
        if code == CURLE_OK { code = girders_easy_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer) }
        if code == CURLE_OK { code = girders_easy_set_xferinfo_callback(easy, connectProgress, context) }
        try CurlTLS.configure(easy, wire.tlsCredentials, &code)
        guard code == CURLE_OK else {
            throw .transport(
                url: wire.url, code: 0, reason: "libcurl refused an option: \(CurlTransfer.message(code, nil))")
        }
    }

    /// What libcurl measured of the connect.
    private static func metrics(_ easy: UnsafeMutableRawPointer, _ url: URL) -> RequestMetrics {
        func duration(_ info: CURLINFO) -> Duration? {
            var value: curl_off_t = 0
            guard girders_easy_get_offset(easy, info, &value) == CURLE_OK, value > 0 else { return nil }
            return .microseconds(value)
        }
        var metrics = RequestMetrics(url: url)
        metrics.domainLookup = duration(CURLINFO_NAMELOOKUP_TIME_T)
        metrics.connect = duration(CURLINFO_CONNECT_TIME_T)
        metrics.secureConnection = duration(CURLINFO_APPCONNECT_TIME_T)
        metrics.networkProtocol = .http1_1
        metrics.reusedConnection = false
        return metrics
    }
}

/// Aborts the connect once the caller gave up.
private let connectProgress: girders_curl_xferinfo_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    return Unmanaged<CurlUpgradeOpener.Abort>.fromOpaque(context).takeUnretainedValue().flag.load() == 0 ? 0 : 1
}
#endif
