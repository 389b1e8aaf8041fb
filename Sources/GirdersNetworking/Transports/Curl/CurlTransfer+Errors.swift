#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation

/// libcurl's results as ``ResponseError``s: the cases URLSessionTransport gives for the same failures.
extension CurlTransfer {
    static func message(_ code: CURLcode, _ buffer: UnsafePointer<CChar>?) -> String {
        if let buffer, buffer.pointee != 0 { return String(cString: buffer) }
        return String(cString: curl_easy_strerror(code))
    }

    /// libcurl's `code` as a ``TransportFailure`` (curl's message the reason), turned into the error every transport
    /// gives for it.
    static func error(
        _ code: CURLcode, _ buffer: UnsafePointer<CChar>?, _ url: URL, _ received: Int64, _ expected: Int64?,
        headComplete: Bool = true
    ) -> ResponseError {
        ResponseError(
            failure(code, message(code, buffer), url, received, expected, headComplete: headComplete), url: url)
    }

    static func failure(
        _ code: CURLcode, _ reason: String, _ url: URL, _ received: Int64, _ expected: Int64?, headComplete: Bool
    ) -> TransportFailure {
        switch code {
        case CURLE_RECV_ERROR where reason == "Out of memory in chunked-encoding":
            // libcurl 7.88 keeps at most 4 KB of a chunked body's trailer fields and says "Out of memory" past it.
            return TransportFailure(
                .malformedResponse, reason: "the response's trailer fields are longer than libcurl accepts (4 KB)")
        case CURLE_OUT_OF_MEMORY where !headComplete:
            // libcurl refuses a header line over 100 KB with "Out of memory"; FoundationNetworking says the same.
            return TransportFailure(.malformedResponse, reason: ResponseError.headerLineTooLong)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return TransportFailure(.cannotFindHost, reason: reason)
        case CURLE_COULDNT_CONNECT: return TransportFailure(.cannotConnect, reason: reason)
        case CURLE_OPERATION_TIMEDOUT: return TransportFailure(.timedOut, reason: reason)
        case CURLE_ABORTED_BY_CALLBACK: return TransportFailure(.cancelled, reason: reason)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2,
            CURLE_HTTP2_STREAM:
            return TransportFailure(.interrupted, reason: reason, receivedBytes: received, expectedBytes: expected)
        case CURLE_SEND_FAIL_REWIND:
            return TransportFailure(
                .interrupted,
                reason: "the reused connection closed before any answer; the request was not sent again by itself: "
                    + "its method is not idempotent (RFC 9110, 9.2.2; withRetriesAllowed allows it) or its body is a "
                    + "stream made once",
                receivedBytes: received, expectedBytes: expected)
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            // The same words as URLSessionTransport's trust evaluation (PublicKeyPinning.failure).
            return TransportFailure(
                .untrustedServer,
                reason: "the public key of \(url.host ?? "the server") matches none of the pinned keys (\(reason))")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return TransportFailure(.untrustedServer, reason: reason)
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CLIENTCERT:
            return TransportFailure(.secureConnectionFailed, reason: reason)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return TransportFailure(.unsupportedURL, reason: reason)
        default:
            return TransportFailure(.other, reason: reason, code: -Int(code.rawValue))
        }
    }
}
#endif
