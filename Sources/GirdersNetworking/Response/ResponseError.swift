public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every way a request can fail, in one enum: unacceptable statuses (each carrying the whole response, so the
/// status code, headers and body are never lost), transport failures, decoding failures and requests that could
/// not be built.
///
/// GirdersSwift's cases keep their meaning with Swift-style names; 409, 410, 422 and 429 are new.
/// ``isCancellation`` tells a cancelled request apart from every other failure.
public enum ResponseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400.
    case badRequest(HTTPResponse)
    /// 401.
    case unauthorized(HTTPResponse)
    /// 403.
    case forbidden(HTTPResponse)
    /// 404.
    case notFound(HTTPResponse)
    /// 405.
    case methodNotAllowed(HTTPResponse)
    /// 406.
    case notAcceptable(HTTPResponse)
    /// 408.
    case requestTimeout(HTTPResponse)
    /// 409.
    case conflict(HTTPResponse)
    /// 410.
    case gone(HTTPResponse)
    /// 422.
    case unprocessableEntity(HTTPResponse)
    /// 429.
    case tooManyRequests(HTTPResponse)
    /// 500.
    case internalServerError(HTTPResponse)
    /// 501.
    case notImplemented(HTTPResponse)
    /// 502.
    case badGateway(HTTPResponse)
    /// 503.
    case serviceUnavailable(HTTPResponse)
    /// 504.
    case gatewayTimeout(HTTPResponse)
    /// Any other status outside the acceptable ones (by default 2xx), including unfollowed redirects.
    case unacceptableStatusCode(HTTPResponse)
    /// A typed request rejected the response's status and decoded its body into its own error type (DotDotDot's
    /// `parseError`, danielbyon/Requests' `Failure`); the value and the response are in ``FailureBody``, and
    /// ``failure(as:)`` reads the value. A body that does not decode leaves the status case instead.
    case rejected(FailureBody)
    /// The `Content-Type` is not one of the expected media types.
    case unacceptableContentType(expected: [String], HTTPResponse)
    /// The body was empty but the result type needs content (an empty 200 is allowed only when opted in).
    case emptyBody(HTTPResponse)
    /// The body could not be decoded; see ``DecodingFailure`` for the coding path and the start of the body.
    case decodingFailed(DecodingFailure)
    /// No response handler produces the requested type.
    case noHandler(type: String, HTTPResponse)
    /// No progress within the request's timeout.
    case timedOut(url: URL?)
    /// The connection was refused or lost.
    case cannotConnect(url: URL?, reason: String)
    /// The host name could not be resolved.
    case cannotFindHost(url: URL?, reason: String)
    /// The request was cancelled through its handle or its Swift `Task`.
    case cancelled(url: URL?)
    /// More redirects than the policy allows.
    case tooManyRedirects(url: URL?, limit: Int)
    /// Any other transport failure, with the `URLError` code when there is one.
    case transport(url: URL?, code: Int, reason: String)
    /// The request could not be built (see ``Request/failureReason``); nothing was sent.
    case invalidRequest(reason: String)
    /// The request needs a feature this platform's transport lacks; nothing was sent.
    case unsupported(feature: String)
    /// An interceptor could not adapt the request (for example no credential is available).
    case interceptorFailed(reason: String)
    /// Refreshing the credential failed; every request waiting for the refresh fails with it.
    case refreshFailed(reason: String)
    /// The connection was reset or closed before the response was complete, typically in the middle of the body.
    /// The byte counts are known for streamed transfers (``HTTP/upload(_:progress:)``,
    /// ``HTTP/download(_:to:progress:)``, bodies from disk) and `nil` where the transport cannot tell.
    case interrupted(url: URL?, receivedBytes: Int64?, expectedBytes: Int64?, reason: String)
    /// A file to upload could not be read, or a download could not be written or moved into place.
    case fileError(path: String, reason: String)
    /// The response exceeded one of its ``ResponseLimits`` (a body, a download or a head too large): the transfer
    /// was stopped at once and any partial download file deleted. `maximum` is the limit's value.
    case limitExceeded(url: URL?, limit: ResponseLimits.Limit, maximum: Int64)
    /// The response broke HTTP's framing rules in a way that leaves its body uncertain (conflicting
    /// `Content-Length` values); nothing of it is returned.
    case malformedResponse(url: URL?, reason: String)
    /// The request's deadline (``withDeadline(_:)``) passed before it ended, whatever attempt, retry delay or
    /// redirect it was in; the transfer was stopped.
    case deadlineExceeded(url: URL?, seconds: TimeInterval)

    /// The error for an unacceptable status, by code.
    public static func forStatus(_ response: HTTPResponse) -> ResponseError {
        switch response.statusCode {
        case 400: .badRequest(response)
        case 401: .unauthorized(response)
        case 403: .forbidden(response)
        case 404: .notFound(response)
        case 405: .methodNotAllowed(response)
        case 406: .notAcceptable(response)
        case 408: .requestTimeout(response)
        case 409: .conflict(response)
        case 410: .gone(response)
        case 422: .unprocessableEntity(response)
        case 429: .tooManyRequests(response)
        case 500: .internalServerError(response)
        case 501: .notImplemented(response)
        case 502: .badGateway(response)
        case 503: .serviceUnavailable(response)
        case 504: .gatewayTimeout(response)
        default: .unacceptableStatusCode(response)
        }
    }

    /// The response behind a status, rejection, content-type, empty-body or handler error; `nil` for the others.
    public var response: HTTPResponse? {
        switch self {
        case .badRequest(let response), .unauthorized(let response), .forbidden(let response),
            .notFound(let response), .methodNotAllowed(let response), .notAcceptable(let response),
            .requestTimeout(let response), .conflict(let response), .gone(let response),
            .unprocessableEntity(let response), .tooManyRequests(let response), .internalServerError(let response),
            .notImplemented(let response), .badGateway(let response), .serviceUnavailable(let response),
            .gatewayTimeout(let response), .unacceptableStatusCode(let response),
            .unacceptableContentType(_, let response), .emptyBody(let response), .noHandler(_, let response):
            response
        case .rejected(let body):
            body.response
        case .decodingFailed(let failure):
            failure.response
        case .timedOut, .cannotConnect, .cannotFindHost, .cancelled, .tooManyRedirects, .transport, .invalidRequest,
            .unsupported, .interceptorFailed, .refreshFailed, .interrupted, .fileError, .limitExceeded,
            .deadlineExceeded, .malformedResponse:
            nil
        }
    }

    /// The response when the error says only that its status was not accepted (``ResponseValidation`` or the
    /// request's status codes): the status cases, ``unacceptableStatusCode(_:)`` and ``rejected(_:)``; `nil` for
    /// every other error, a content-type or decoding failure included. A bridge that hands every status on as a
    /// response (the OpenAPI transport) returns this one as it came.
    public var statusRejection: HTTPResponse? {
        switch self {
        case .unacceptableContentType, .emptyBody, .noHandler, .decodingFailed: nil
        default: response
        }
    }

    /// The status code of the response behind the error, if there was one.
    public var statusCode: Int? { response?.statusCode }

    /// Whether the request was cancelled (and did not fail for any other reason).
    public var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// One line naming the status or failure, the method and URL, and the start of the body.
    public var description: String {
        if let response, case .decodingFailed(let failure) = self {
            return "cannot decode \(failure.type) from \(Self.origin(response)): \(failure.reason); body: "
                + failure.bodyPrefix
        }
        if let response {
            let status =
                "HTTP \(response.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: response.statusCode))"
            let detail = reason.isEmpty ? "" : " (\(reason))"
            return "\(status)\(detail) for \(Self.origin(response)); body: \(response.bodyPrefix())"
        }
        return reason
    }

    /// What went wrong, without the response: the text for transport and request errors.
    public var reason: String {
        switch self {
        case .unacceptableContentType(let expected, let response):
            "Content-Type \(response.headers["Content-Type"] ?? "(none)") is not \(expected.joined(separator: " or "))"
        case .rejected(let body): "rejected: \(body.description)"
        case .emptyBody: "the body is empty"
        case .noHandler(let type, _): "no response handler produces \(type)"
        case .decodingFailed(let failure): failure.reason
        case .timedOut(let url): "timed out: \(Self.text(url))"
        case .cannotConnect(let url, let reason): "cannot connect to \(Self.text(url)): \(reason)"
        case .cannotFindHost(let url, let reason): "cannot find the host of \(Self.text(url)): \(reason)"
        case .cancelled(let url): "cancelled: \(Self.text(url))"
        case .tooManyRedirects(let url, let limit): "more than \(limit) redirects from \(Self.text(url))"
        case .transport(let url, let code, let reason): "transport error \(code) for \(Self.text(url)): \(reason)"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .unsupported(let feature): "unsupported on this platform: \(feature)"
        case .interceptorFailed(let reason): "an interceptor failed: \(reason)"
        case .refreshFailed(let reason): "refreshing the credential failed: \(reason)"
        case .interrupted(let url, let received?, let expected, let reason):
            "the response from \(Self.text(url)) was cut off after \(received)"
                + (expected.map { " of \($0)" } ?? "") + " bytes: \(reason)"
        case .interrupted(let url, nil, _, let reason):
            "the response from \(Self.text(url)) was cut off: \(reason)"
        case .fileError(let path, let reason): "file \(path): \(reason)"
        case .malformedResponse(let url, let reason): "the response from \(Self.text(url)) is malformed: \(reason)"
        case .deadlineExceeded(let url, let seconds):
            "the request to \(Self.text(url)) did not end within its deadline of \(seconds) s"
        case .limitExceeded(let url, let limit, let maximum):
            "the response from \(Self.text(url)) exceeds \(limit), \(maximum)"
        default: ""
        }
    }

    private static func origin(_ response: HTTPResponse) -> String {
        "\(response.request.method) \(text(response.url ?? response.request.fullURL))"
    }

    private static func text(_ url: URL?) -> String { url?.absoluteString ?? "(no URL)" }
}

extension ResponseError {
    /// Why libcurl (CurlTransport, and FoundationNetworking underneath URLSessionTransport on Linux) refused a head.
    static let headerLineTooLong = "a header line of the response is longer than libcurl accepts (100 KB per line)"
}
