import GirdersSupport

/// Signs every request with the current credential and refreshes it when the server refuses it, once for any
/// number of requests refused at the same time.
///
/// - A request refused while signed with an older credential than the current one is retried at once with the
///   current one, without another refresh.
/// - Requests refused with the current credential wait for a single refresh; when it succeeds they all retry
///   with the new credential, when it fails they all fail with ``ResponseError/refreshFailed(reason:)``. So does a
///   call that started before the refresh failed and is refused only after: it was signed with the credential that
///   could not be refreshed, and trying again at once would refresh a second time for the same moment. A call that
///   starts after the failure refreshes again when it is refused.
/// - A request is retried after a refresh at most ``maximumRefreshesPerRequest`` times, so a server that refuses
///   every credential cannot cause a refresh loop.
public final class AuthenticationInterceptor<Auth: Authenticator>: RequestInterceptor {
    private struct State {
        var credential: Auth.Credential
        var version = 0
        var refresh: (version: Int, task: Task<Auth.Credential, any Error>)?
        /// The last refresh that failed: the credential's version, the newest call started when it failed, and why.
        var failure: (version: Int, lastCall: UInt64, reason: String)?
    }

    private let authenticator: Auth
    private let state: LockedState<State>
    /// How many times one request may be retried after a refresh.
    public let maximumRefreshesPerRequest: Int

    /// An interceptor starting with `credential`.
    public init(_ authenticator: Auth, credential: Auth.Credential, maximumRefreshesPerRequest: Int = 1) {
        self.authenticator = authenticator
        self.state = LockedState(State(credential: credential))
        self.maximumRefreshesPerRequest = maximumRefreshesPerRequest
    }

    /// The credential requests are signed with now: the initial one until a refresh replaces it.
    public var credential: Auth.Credential {
        state.withLock { $0.credential }
    }

    /// Signs `request` with the current credential.
    public func adapt(_ request: Request, context: InterceptorContext) async throws -> Request {
        authenticator.apply(state.withLock { $0.credential }, to: request)
    }

    /// Retries a refused request: at once when a newer credential exists, after one shared refresh otherwise.
    public func retry(
        _ request: Request, after failure: ResponseError, context: InterceptorContext
    ) async -> RetryDecision {
        guard authenticator.isAuthenticationFailure(failure) else { return .doNotRetry }
        guard context.attempt <= maximumRefreshesPerRequest else { return .doNotRetry }
        let (current, version, pending, failure) = state.withLock {
            ($0.credential, $0.version, $0.refresh, $0.failure)
        }
        // Signed with an older credential than the current one: the refresh already happened.
        if authenticator.apply(current, to: request).headers != request.headers { return .retry }
        // Started before the refresh of this credential failed: that failure is this call's too.
        if let failure, failure.version == version, context.call <= failure.lastCall {
            return .fail(.refreshFailed(reason: failure.reason))
        }
        let task: Task<Auth.Credential, any Error>
        if let pending, pending.version == version {
            task = pending.task
        } else {
            task = state.withLock { state in
                if let running = state.refresh, running.version == state.version { return running.task }
                let expired = state.credential
                let started = Task { [authenticator] in try await authenticator.refresh(expired) }
                state.refresh = (state.version, started)
                return started
            }
        }
        do {
            let refreshed = try await task.value
            state.withLock { state in
                if state.refresh?.version == version {
                    state.credential = refreshed
                    state.version = version + 1
                    state.refresh = nil
                }
            }
            return .retry
        } catch {
            let reason = "\(error)"
            state.withLock { state in
                if state.refresh?.version == version {
                    state.refresh = nil
                    state.failure = (version, InterceptorContext.lastCall(), reason)
                }
            }
            return .fail(.refreshFailed(reason: reason))
        }
    }
}
