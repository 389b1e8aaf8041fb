import Foundation
import GirdersSupport

/// An ``HTTPTransport`` that lets identical `GET` and `HEAD` requests in flight at the same time share one
/// network call (opt-in, on top of another transport).
///
/// ```swift
/// let client = HTTPClient(transport: CoalescingTransport(URLSessionTransport()))
/// ```
///
/// Requests are identical when method, full URL, header fields, timeout and limits are equal, however they were
/// made (typed requests and `URLRequest` edits included: the client lowered them first). Every caller gets the
/// same response or error. A caller that cancels leaves the others waiting; the shared call is cancelled only
/// when every caller has cancelled. Downloads and streamed bodies are never shared.
public final class CoalescingTransport: HTTPTransport {
    /// The transport that does the sending.
    public let base: any HTTPTransport

    /// Whether the transport it wraps reads metrics.
    public var readsMetrics: Bool { base.readsMetrics }
    private let flights = LockedState<[Key: Flight]>([:])

    /// Coalesces requests sent through `base`.
    public init(_ base: any HTTPTransport) {
        self.base = base
    }

    /// The number of shared calls in flight now.
    public var callsInFlight: Int { flights.withLock { $0.count } }

    /// The number of callers waiting on the shared calls in flight now (for tests that must act once a caller has
    /// joined, instead of sleeping and hoping it has).
    var callersInFlight: Int { flights.withLock { $0.values.reduce(0) { $0 + $1.members } } }

    /// Joins an identical request in flight, or starts one others can join; every caller's sink receives the
    /// shared response (and holds it to its own limits). Requests with a body, a download file or a streamed body
    /// go straight to ``base``.
    public func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        guard request.method == "GET" || request.method == "HEAD", request.body.length == 0,
            sink.destination == .memory
        else { return try await base.send(request, to: sink) }
        let key = Key(request)
        let (flight, waiter) = flights.withLock { flights in
            let flight = flights[key] ?? Flight()
            flights[key] = flight
            return (flight, flight.join())
        }
        flight.start { [base] () async throws(ResponseError) -> HTTPResponse in
            try await base.exchange(request, in: ResponseSink(request))
        } whenDone: { [flights] in
            flights.withLock { if $0[key] === flight { $0[key] = nil } }
        }
        let response: HTTPResponse
        do {
            response = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    flight.wait(waiter, continuation)
                }
            } onCancel: { [flights] in
                // Leaving and forgetting an abandoned flight happen under one lock, so nobody joins it in between.
                let (continuation, task) = flights.withLock { flights in
                    let (continuation, last) = flight.leave(waiter)
                    if last, flights[key] === flight { flights[key] = nil }
                    return (continuation, last ? flight.task : nil)
                }
                continuation?.resume(throwing: ResponseError.cancelled(url: request.url))
                task?.cancel()
            }
        } catch {
            throw error as? ResponseError ?? .cancelled(url: request.url)
        }
        try sink.deliver(response)
    }

    private struct Key: Hashable {
        let method: String
        let url: String
        let headers: [String]
        let timeout: Double
        let limits: ResponseLimits

        init(_ request: WireRequest) {
            method = request.method
            url = request.url.absoluteString
            headers = request.headers.map { "\($0.name.lowercased()):\($0.value)" }
            timeout = request.timeout
            limits = request.limits
        }
    }
}

/// One shared call and its waiters.
private final class Flight: Sendable {
    private struct State {
        var nextWaiter = 0
        var waiting: [Int: CheckedContinuation<HTTPResponse, any Error>] = [:]
        var left: Set<Int> = []
        var members = 0
        var task: Task<Void, Never>?
        var outcome: Result<HTTPResponse, ResponseError>?
    }

    private let state = LockedState(State())

    /// A new waiter's number (called under the flights lock, so a finished flight is never joined).
    func join() -> Int {
        state.withLock { state in
            state.nextWaiter += 1
            state.members += 1
            return state.nextWaiter
        }
    }

    /// Starts the call once.
    func start(
        _ call: @escaping @Sendable () async throws(ResponseError) -> HTTPResponse,
        whenDone: @escaping @Sendable () -> Void
    ) {
        state.withLock { state in
            guard state.task == nil else { return }
            state.task = Task { [self] in
                let outcome: Result<HTTPResponse, ResponseError>
                do throws(ResponseError) {
                    outcome = .success(try await call())
                } catch {
                    outcome = .failure(error)
                }
                whenDone()
                let waiting = self.state.withLock { state in
                    state.outcome = outcome
                    defer { state.waiting = [:] }
                    return Array(state.waiting.values)
                }
                for continuation in waiting { continuation.resume(with: outcome.mapError { $0 }) }
            }
        }
    }

    /// Waits for the outcome, unless the waiter already left or the outcome is there.
    func wait(_ waiter: Int, _ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let ready: Result<HTTPResponse, any Error>? = state.withLock { state in
            if state.left.contains(waiter) { return .failure(ResponseError.cancelled(url: nil)) }
            if let outcome = state.outcome { return outcome.mapError { $0 } }
            state.waiting[waiter] = continuation
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// A waiter cancelled: returns its continuation (to be resumed with `cancelled`) and whether it was the last
    /// member, in which case the call should be cancelled.
    func leave(_ waiter: Int) -> (CheckedContinuation<HTTPResponse, any Error>?, Bool) {
        state.withLock { state in
            state.left.insert(waiter)
            state.members -= 1
            return (state.waiting.removeValue(forKey: waiter), state.members == 0)
        }
    }

    /// The shared call's task.
    var task: Task<Void, Never>? { state.withLock { $0.task } }

    /// The callers that joined and have not left.
    var members: Int { state.withLock { $0.members } }
}
