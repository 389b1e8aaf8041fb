public import Dispatch
import GirdersSupport

/// Starts requests with ids and lets anyone observe them: by id (`isFinished`, `cancel`, `observe`) and by
/// response type, with observers owned by an object held weakly (Dratini's observers, without their gap: an
/// observer passed to ``start(_:as:queue:observer:)`` is registered before the request starts, and observing an
/// id that already finished delivers its result at once).
///
/// ```swift
/// let center = RequestCenter(client: client)
/// center.observe(User.self, owner: self) { response in show(response.bodyObject) }
/// let id = center.start(request, as: User.self)
/// center.cancel(id)
/// ```
public final class RequestCenter: Sendable {
    /// How a request ended, as observers by id see it.
    public typealias Outcome = Result<HTTPResponse, ResponseError>

    private struct Entry {
        var task: Task<Void, Never>?
        var outcome: Outcome?
        var observers: [(DispatchQueue, @Sendable (Outcome) -> Void)] = []
        var cancelRequested = false
    }

    private struct TypeObserver {
        weak var owner: AnyObject?
        let queue: DispatchQueue
        let deliver: @Sendable (Any) -> Void
    }

    private struct State {
        var next: UInt64 = 1
        var entries: [RequestID: Entry] = [:]
        var finishedOrder: [RequestID] = []
        var typeObservers: [ObjectIdentifier: [TypeObserver]] = [:]
    }

    private let client: any HTTP
    private let state = LockedState(State())
    /// How many finished requests keep their outcome for late observers.
    public let retainedOutcomes: Int

    /// A center sending through `client`.
    public init(client: any HTTP, retainedOutcomes: Int = 1_000) {
        self.client = client
        self.retainedOutcomes = retainedOutcomes
    }

    /// Starts `request`, decoding `T`; `observer` (if given) is registered before the request starts.
    @discardableResult
    public func start<T: Sendable>(
        _ request: Request, as type: T.Type = T.self, queue: DispatchQueue = .main,
        observer: (@Sendable (Outcome) -> Void)? = nil
    ) -> RequestID {
        let id = state.withLock { state -> RequestID in
            let id = RequestID(value: state.next)
            state.next += 1
            var entry = Entry()
            if let observer { entry.observers.append((queue, observer)) }
            state.entries[id] = entry
            return id
        }
        let task = Task { [self] in
            let outcome: Outcome
            var decoded: Response<T>?
            do throws(ResponseError) {
                let raw = try await client.perform(request)
                let response = Response(raw, bodyObject: try client.responseHandlers.decode(raw, as: T.self))
                decoded = response
                outcome = .success(raw)
            } catch {
                outcome = .failure(error)
            }
            finish(id, outcome, decoded)
        }
        let cancelNow = state.withLock { state -> Bool in
            state.entries[id]?.task = task
            return state.entries[id]?.cancelRequested ?? false
        }
        if cancelNow { task.cancel() }
        return id
    }

    private func finish<T: Sendable>(_ id: RequestID, _ outcome: Outcome, _ decoded: Response<T>?) {
        let (observers, typed) = state.withLock {
            state -> ([(DispatchQueue, @Sendable (Outcome) -> Void)], [TypeObserver]) in
            let observers = state.entries[id]?.observers ?? []
            state.entries[id]?.observers = []
            state.entries[id]?.outcome = outcome
            state.entries[id]?.task = nil
            state.finishedOrder.append(id)
            while state.finishedOrder.count > retainedOutcomes {
                state.entries[state.finishedOrder.removeFirst()] = nil
            }
            let key = ObjectIdentifier(T.self)
            state.typeObservers[key]?.removeAll { $0.owner == nil }
            return (observers, decoded == nil ? [] : state.typeObservers[key] ?? [])
        }
        // Type observers first: on a shared queue, a request's own observer then runs after every delivery of it.
        if let decoded {
            for observer in typed where observer.owner != nil {
                let deliver = observer.deliver
                observer.queue.async { deliver(decoded) }
            }
        }
        for (queue, observer) in observers { queue.async { observer(outcome) } }
    }

    /// Whether the request ended (also `true` for ids no longer retained).
    public func isFinished(_ id: RequestID) -> Bool {
        state.withLock { state in state.entries[id].map { $0.outcome != nil } ?? true }
    }

    /// Cancels the request; its observers get ``ResponseError/cancelled(url:)``.
    public func cancel(_ id: RequestID) {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.entries[id]?.cancelRequested = true
            return state.entries[id]?.task
        }
        task?.cancel()
    }

    /// Observes one request by id; a request that already finished delivers its outcome at once.
    public func observe(
        _ id: RequestID, queue: DispatchQueue = .main, _ observer: @escaping @Sendable (Outcome) -> Void
    ) {
        let finished = state.withLock { state -> Outcome? in
            guard let entry = state.entries[id] else { return nil }
            if let outcome = entry.outcome { return outcome }
            state.entries[id]?.observers.append((queue, observer))
            return nil
        }
        if let finished { queue.async { observer(finished) } }
    }

    /// Observes every successful response decoded as `T`, for as long as `owner` lives.
    public func observe<T: Sendable>(
        _ type: T.Type, owner: AnyObject, queue: DispatchQueue = .main,
        _ observer: @escaping @Sendable (Response<T>) -> Void
    ) {
        let entry = TypeObserver(owner: owner, queue: queue) { value in
            if let response = value as? Response<T> { observer(response) }
        }
        state.withLock { $0.typeObservers[ObjectIdentifier(T.self), default: []].append(entry) }
    }
}
