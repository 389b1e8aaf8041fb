public import Dispatch
import Foundation
import GirdersSupport

/// A request with DotDotDot-style handlers: `.before`, `.onCompletion`, `.onError`, `.onCancel`, `.finally`.
///
/// ```swift
/// client.task(request, as: User.self)
///     .before { spinner.start() }
///     .onCompletion { response in show(response.bodyObject) }
///     .onError { error in show(error) }
///     .onCancel { log("cancelled") }
///     .finally { spinner.stop() }
/// ```
///
/// The request starts on the handler queue, once the chain that created it is in place, wherever it was built:
/// created on its queue (typically the main queue), after that code returns to the queue; created anywhere else
/// (an async function, another thread), when the first outcome handler (`onCompletion`, `onError`, `onCancel` or
/// `finally`) is added. A chain built in one expression in DotDotDot's order therefore always runs `before` first
/// and then exactly one outcome; `.before` handlers added after the start never run. Exactly one of `onCompletion`,
/// `onError` and `onCancel` kinds runs, each handler once;
/// a cancelled request runs `onCancel` and then `finally`, never `onError` (DotDotDot ran `onError` and
/// `finally` twice). Handlers added after the end still run. Every handler runs on the task's queue.
public final class FluentTask<Value: Sendable>: Sendable {
    /// How the request ended.
    enum Outcome: Sendable {
        case success(Response<Value>)
        case failure(ResponseError)
        case cancelled
    }

    private struct State {
        var before: [@Sendable () -> Void] = []
        var completion: [@Sendable (Response<Value>) -> Void] = []
        var error: [@Sendable (ResponseError) -> Void] = []
        var cancel: [@Sendable () -> Void] = []
        var finally: [@Sendable () -> Void] = []
        var outcome: Outcome?
        var started = false
        var cancelRequested = false
        var task: Task<Void, Never>?
        /// The request, until its start is scheduled.
        var perform: Perform?
    }

    /// The request's closure in a struct of its own: a typed-throws function type as a generic argument (here the
    /// result of `withLock`) needs run-time support from macOS 15 / iOS 18 / tvOS 18, a struct holding one does not.
    private struct Perform: Sendable {
        let run: @Sendable () async throws(ResponseError) -> Response<Value>
    }

    private let state = LockedState(State())
    private let queue: DispatchQueue
    /// Marks each handler queue with its own identity, so a task can tell whether it is created on its queue.
    private static var queueIdentity: DispatchSpecificKey<ObjectIdentifier> { FluentTaskQueues.identity }

    init(queue: DispatchQueue, perform: @escaping @Sendable () async throws(ResponseError) -> Response<Value>) {
        self.queue = queue
        state.withLock { $0.perform = Perform(run: perform) }
        queue.setSpecific(key: Self.queueIdentity, value: ObjectIdentifier(queue))
        if DispatchQueue.getSpecific(key: Self.queueIdentity) == ObjectIdentifier(queue) {
            scheduleStart()  // runs once this code returns to the queue: the chain is in place by then
        }
    }

    /// Schedules the start on the queue, once.
    private func scheduleStart() {
        guard let perform = state.withLock({ $0.perform.take() }) else { return }
        queue.async { [self] in start(perform) }
    }

    private func start(_ perform: Perform) {
        let (before, cancelled) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
            state.started = true
            defer { state.before = [] }
            return (state.before, state.cancelRequested)
        }
        if cancelled {
            finish(.cancelled)
            return
        }
        for handler in before { handler() }
        let task = Task { [self] in
            let outcome: Outcome
            do throws(ResponseError) {
                outcome = .success(try await perform.run())
            } catch {
                outcome = error.isCancellation ? .cancelled : .failure(error)
            }
            finish(outcome)
        }
        let cancelNow = state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        if cancelNow { task.cancel() }
    }

    private func finish(_ outcome: Outcome) {
        let handlers = state.withLock { state -> State? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            let taken = state
            state.completion = []
            state.error = []
            state.cancel = []
            state.finally = []
            return taken
        }
        guard let handlers else { return }
        queue.async {
            Self.run(outcome, handlers)
        }
    }

    private static func run(_ outcome: Outcome, _ handlers: State) {
        switch outcome {
        case .success(let response): for handler in handlers.completion { handler(response) }
        case .failure(let error): for handler in handlers.error { handler(error) }
        case .cancelled: for handler in handlers.cancel { handler() }
        }
        for handler in handlers.finally { handler() }
    }

    /// Adds an outcome handler, or runs it at once (on the queue) when the task already ended with its kind; the
    /// first one added starts a task created off its queue.
    private func add(_ register: (inout State) -> Void, late: @escaping @Sendable (Outcome) -> Void) -> Self {
        let ended = state.withLock { state -> Outcome? in
            if let outcome = state.outcome { return outcome }
            register(&state)
            return nil
        }
        if let ended { queue.async { late(ended) } }
        scheduleStart()
        return self
    }

    /// Runs before the request starts; added after the start, it never runs.
    @discardableResult
    public func before(_ handler: @escaping @Sendable () -> Void) -> Self {
        state.withLock { state in
            if !state.started { state.before.append(handler) }
        }
        return self
    }

    /// Runs with the response when the request succeeds.
    @discardableResult
    public func onCompletion(_ handler: @escaping @Sendable (Response<Value>) -> Void) -> Self {
        add({ $0.completion.append(handler) }) { outcome in
            if case .success(let response) = outcome { handler(response) }
        }
    }

    /// Runs with the error when the request fails for any reason but cancellation.
    @discardableResult
    public func onError(_ handler: @escaping @Sendable (ResponseError) -> Void) -> Self {
        add({ $0.error.append(handler) }) { outcome in
            if case .failure(let error) = outcome { handler(error) }
        }
    }

    /// Runs when the request was cancelled.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Self {
        add({ $0.cancel.append(handler) }) { outcome in
            if case .cancelled = outcome { handler() }
        }
    }

    /// Runs last, however the request ended.
    @discardableResult
    public func finally(_ handler: @escaping @Sendable () -> Void) -> Self {
        add({ $0.finally.append(handler) }) { _ in handler() }
    }

    /// Cancels the request; before it started, it never starts.
    public func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.cancelRequested = true
            return state.task
        }
        task?.cancel()
        scheduleStart()  // a task that never started ends as cancelled, with its handlers
    }

    /// Whether the request ended (and its handlers were scheduled).
    public var isFinished: Bool { state.withLock { $0.outcome != nil } }
}

/// The key that marks handler queues with their identity (one for every `FluentTask` type).
enum FluentTaskQueues {
    static let identity = DispatchSpecificKey<ObjectIdentifier>()
}

extension HTTP {
    /// A ``FluentTask`` for `request`, decoding `T`, with handlers on `queue` (main by default).
    public func task<T: Sendable>(
        _ request: Request, as type: T.Type = T.self, queue: DispatchQueue = .main
    ) -> FluentTask<T> {
        FluentTask(queue: queue) { () async throws(ResponseError) -> Response<T> in
            try await self.executeRequest(request: request, as: T.self)
        }
    }
}
