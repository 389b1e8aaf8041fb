/// Changes requests before they are sent and decides whether failed ones are tried again.
///
/// Interceptors run in order: every ``adapt(_:context:)`` before each attempt, then, when the attempt fails, each
/// ``retry(_:after:context:)`` until one decides something other than ``RetryDecision/doNotRetry``. Set them per
/// client (`HTTPClient(interceptors:)`) and add more for
/// one call with ``HTTPClient/adding(_:)``.
public protocol RequestInterceptor: Sendable {
    /// The request to send for this attempt; throwing stops the call with ``ResponseError/interceptorFailed(reason:)``.
    func adapt(_ request: Request, context: InterceptorContext) async throws -> Request

    /// Whether to try again after `failure` (a status, transport or decoding error; never a cancellation).
    func retry(_ request: Request, after failure: ResponseError, context: InterceptorContext) async -> RetryDecision
}

extension RequestInterceptor {
    /// The request unchanged.
    public func adapt(_ request: Request, context: InterceptorContext) async throws -> Request {
        request
    }

    /// ``RetryDecision/doNotRetry``.
    public func retry(
        _ request: Request, after failure: ResponseError, context: InterceptorContext
    ) async -> RetryDecision {
        .doNotRetry
    }
}

/// What an interceptor knows about the call it works on.
public struct InterceptorContext: Sendable {
    /// The attempt about to be made or just failed, counting from 1.
    public let attempt: Int

    /// A context, for calling interceptors in tests of your own.
    public init(attempt: Int) {
        self.attempt = attempt
    }
}

/// An interceptor's answer to a failure.
public enum RetryDecision: Sendable, Equatable {
    /// Let the failure stand (or let the next interceptor decide).
    case doNotRetry
    /// Try again now.
    case retry
    /// Try again after a delay in seconds.
    case retryAfter(Double)
    /// Fail the call with this error instead (for example the error of a failed token refresh).
    case fail(ResponseError)
}
