/// Which ``ResponseError`` case an error is, without what it carries: GirdersSwift compared errors by case,
/// `if responseError == .unauthorized { ... }`, and that comparison keeps compiling and meaning the same.
///
/// ```swift
/// guard let responseError = error as? ResponseError else { return handler(error) }
/// if responseError == .unauthorized { refreshToken() } else { handler(error) }
/// ```
public enum ResponseErrorKind: String, Sendable, Hashable, CaseIterable {
    case badRequest, unauthorized, forbidden, notFound, methodNotAllowed, notAcceptable, requestTimeout, conflict
    case gone, unprocessableEntity, tooManyRequests, internalServerError, notImplemented, badGateway
    case serviceUnavailable, gatewayTimeout, unacceptableStatusCode, rejected, unacceptableContentType, emptyBody
    case decodingFailed, noHandler, timedOut, cannotConnect, cannotFindHost, cancelled, tooManyRedirects, transport
    case invalidRequest, unsupported, interceptorFailed, refreshFailed, interrupted, fileError
    case limitExceeded, deadlineExceeded, malformedResponse
}

extension ResponseError {
    /// The case of this error, without its payload.
    public var kind: ResponseErrorKind {
        switch self {
        case .badRequest: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .notAcceptable: .notAcceptable
        case .requestTimeout: .requestTimeout
        case .conflict: .conflict
        case .gone: .gone
        case .unprocessableEntity: .unprocessableEntity
        case .tooManyRequests: .tooManyRequests
        case .internalServerError: .internalServerError
        case .notImplemented: .notImplemented
        case .badGateway: .badGateway
        case .serviceUnavailable: .serviceUnavailable
        case .gatewayTimeout: .gatewayTimeout
        case .unacceptableStatusCode: .unacceptableStatusCode
        case .rejected: .rejected
        case .unacceptableContentType: .unacceptableContentType
        case .emptyBody: .emptyBody
        case .decodingFailed: .decodingFailed
        case .noHandler: .noHandler
        case .timedOut: .timedOut
        case .cannotConnect: .cannotConnect
        case .cannotFindHost: .cannotFindHost
        case .cancelled: .cancelled
        case .tooManyRedirects: .tooManyRedirects
        case .transport: .transport
        case .invalidRequest: .invalidRequest
        case .unsupported: .unsupported
        case .interceptorFailed: .interceptorFailed
        case .refreshFailed: .refreshFailed
        case .interrupted: .interrupted
        case .fileError: .fileError
        case .limitExceeded: .limitExceeded
        case .deadlineExceeded: .deadlineExceeded
        case .malformedResponse: .malformedResponse
        }
    }

    /// Whether `error` is of case `kind`: `responseError == .unauthorized`.
    public static func == (error: ResponseError, kind: ResponseErrorKind) -> Bool {
        error.kind == kind
    }

    /// Whether `error` is not of case `kind`.
    public static func != (error: ResponseError, kind: ResponseErrorKind) -> Bool {
        error.kind != kind
    }
}
