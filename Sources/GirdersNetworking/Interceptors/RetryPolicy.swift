import Foundation

/// Retries transient failures with exponential backoff and full jitter, honouring `Retry-After`.
///
/// Retried: the statuses 408, 429, 500, 502, 503 and 504 (unless a `CachingTransport` answered them), timeouts and
/// lost or refused connections; only for
/// idempotent methods unless the request opts in with ``withRetriesAllowed(_:)``. `Retry-After` is read in
/// seconds or as an HTTP date and capped at ``maximumDelay``; otherwise the delay is a random value between 0
/// and `min(maximumDelay, baseDelay * 2^(attempt - 1))`.
///
/// ```swift
/// let client = HTTPClient(interceptors: [RetryPolicy(maximumAttempts: 4, baseDelay: 0.2, maximumDelay: 10)])
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// The most attempts, the first included.
    public var maximumAttempts: Int
    /// The backoff base in seconds.
    public var baseDelay: Double
    /// The longest delay in seconds, `Retry-After` included.
    public var maximumDelay: Double
    /// The statuses retried.
    public var retryableStatusCodes: Set<Int>
    private let random: @Sendable (ClosedRange<Double>) -> Double

    /// A retry policy; by default 3 attempts, 0.5 s base delay, 30 s maximum delay.
    public init(
        maximumAttempts: Int = 3, baseDelay: Double = 0.5, maximumDelay: Double = 30,
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    ) {
        self.init(
            maximumAttempts: maximumAttempts, baseDelay: baseDelay, maximumDelay: maximumDelay,
            retryableStatusCodes: retryableStatusCodes, random: { Double.random(in: $0) })
    }

    init(
        maximumAttempts: Int, baseDelay: Double, maximumDelay: Double, retryableStatusCodes: Set<Int>,
        random: @escaping @Sendable (ClosedRange<Double>) -> Double
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.retryableStatusCodes = retryableStatusCodes
        self.random = random
    }

    /// Retries transient failures of idempotent (or opted-in) requests until ``maximumAttempts``.
    public func retry(
        _ request: Request, after failure: ResponseError, context: InterceptorContext
    ) async -> RetryDecision {
        guard context.attempt < maximumAttempts, request.method.isIdempotent || request.allowsRetries else {
            return .doNotRetry
        }
        switch failure {
        case .timedOut, .cannotConnect, .interrupted:
            break
        case .transport(_, let code, _) where code == URLError.networkConnectionLost.rawValue:
            break
        default:
            // A cache's answer (a 504 of `cacheOnly`, a stored 503) would be the same again.
            guard let response = failure.response, response.cacheUse == nil,
                retryableStatusCodes.contains(response.statusCode)
            else {
                return .doNotRetry
            }
            if let after = response.headers["Retry-After"], let seconds = Self.seconds(retryAfter: after) {
                return .retryAfter(min(max(seconds, 0), maximumDelay))
            }
        }
        let ceiling = min(maximumDelay, baseDelay * pow(2, Double(context.attempt - 1)))
        return .retryAfter(random(0...max(ceiling, 0)))
    }

    /// `Retry-After` as seconds from now: a number of seconds or an HTTP date.
    static func seconds(retryAfter value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return seconds }
        return HTTPDate.parse(trimmed).map { $0.timeIntervalSince(now) }
    }
}

/// Lets a request that is not idempotent (POST, PATCH) be retried by ``RetryPolicy``; its body must be safe to
/// send twice.
public func withRetriesAllowed(_ allowed: Bool = true) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.allowsRetries = allowed
        return request
    }
}
