#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation

/// libcurl's results as ``ResponseError``s: the cases URLSessionTransport gives for the same failures.
extension CurlTransfer {
    static func message(_ code: CURLcode, _ buffer: UnsafePointer<CChar>?) -> String {
        if let buffer, buffer.pointee != 0 { return String(cString: buffer) }
        return String(cString: curl_easy_strerror(code))
    }

    /// The ``ResponseError`` case URLSessionTransport gives for the same failure; curl's message is the detail.
    static func error(
        _ code: CURLcode, _ buffer: UnsafePointer<CChar>?, _ url: URL, _ received: Int64, _ expected: Int64?,
        headComplete: Bool = true
    ) -> ResponseError {
        let reason = message(code, buffer)
        switch code {
        case CURLE_RECV_ERROR where reason == "Out of memory in chunked-encoding":
            // libcurl 7.88 keeps at most 4 KB of a chunked body's trailer fields and says "Out of memory" past it.
            return .malformedResponse(
                url: url, reason: "the response's trailer fields are longer than libcurl accepts (4 KB)")
        case CURLE_OUT_OF_MEMORY where !headComplete:
            // libcurl refuses a header line over 100 KB with "Out of memory"; FoundationNetworking says the same.
            return .malformedResponse(url: url, reason: ResponseError.headerLineTooLong)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost(url: url, reason: reason)
        case CURLE_COULDNT_CONNECT: return .cannotConnect(url: url, reason: reason)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(url: url)
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled(url: url)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2,
            CURLE_HTTP2_STREAM:
            return .interrupted(url: url, receivedBytes: received, expectedBytes: expected, reason: reason)
        case CURLE_SEND_FAIL_REWIND:
            return .interrupted(
                url: url, receivedBytes: received, expectedBytes: expected,
                reason: "the reused connection closed before any answer; the request was not sent again by itself: "
                    + "its method is not idempotent (RFC 9110, 9.2.2; withRetriesAllowed allows it) or its body is a "
                    + "stream made once")
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            // The same words as URLSessionTransport's trust evaluation (PublicKeyPinning.failure).
            return .transport(
                url: url, code: URLError.serverCertificateUntrusted.rawValue,
                reason: "the public key of \(url.host ?? "the server") matches none of the pinned keys (\(reason))")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return .transport(url: url, code: URLError.serverCertificateUntrusted.rawValue, reason: reason)
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CLIENTCERT:
            return .transport(url: url, code: URLError.secureConnectionFailed.rawValue, reason: reason)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .transport(url: url, code: URLError.unsupportedURL.rawValue, reason: reason)
        default:
            return .transport(url: url, code: -Int(code.rawValue), reason: reason)
        }
    }
}
#endif
