import GirdersSupport

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

    /// Attempt `context.attempt` ended, with the validated response or the error it failed with (before any retry
    /// is decided; an error of an interceptor's own ``adapt(_:context:)`` included). Called on every interceptor
    /// once per attempt, so state kept from ``adapt(_:context:)`` under ``InterceptorContext/call`` and
    /// ``InterceptorContext/attempt`` (a tracing span, a timer) can be ended here. For
    /// ``HTTPClient/stream(_:progress:)``, when the head was validated. Must not block.
    func attemptDidFinish(_ request: Request, result: Result<HTTPResponse, ResponseError>, context: InterceptorContext)
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

    /// Nothing.
    public func attemptDidFinish(
        _ request: Request, result: Result<HTTPResponse, ResponseError>, context: InterceptorContext
    ) {}
}

/// What an interceptor knows about the call it works on.
public struct InterceptorContext: Sendable {
    /// The attempt about to be made or just failed, counting from 1.
    public let attempt: Int
    /// The call the attempt belongs to: every attempt of one call shares it, and no other call in the process has
    /// it.
    public let call: UInt64

    /// A context of a call of its own, for calling interceptors in tests of your own.
    public init(attempt: Int) {
        self.init(attempt: attempt, call: Self.nextCall())
    }

    /// A context for attempt `attempt` of call `call`.
    public init(attempt: Int, call: UInt64) {
        self.attempt = attempt
        self.call = call
    }

    private static let calls = LockedState<UInt64>(0)

    /// The newest call number given out so far: every call that started before now has this number or a lower one.
    static func lastCall() -> UInt64 {
        calls.withLock { $0 }
    }

    /// A call number no other call of this process has.
    static func nextCall() -> UInt64 {
        calls.withLock { count in
            count &+= 1
            return count
        }
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
