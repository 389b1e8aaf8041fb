import Foundation
import GirdersSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts and cancels one `URLSessionTask`, whichever happens first: a cancel before the start cancels at start.
///
/// Both happen on ``queue``, never on the caller's thread: FoundationNetworking makes, resumes and cancels a task
/// inside `sync` calls on its session's work queue, which also runs every transfer's libcurl work, and under load
/// those calls waited for seconds on Swift's cooperative threads (as many as the cores): a test run saw both of them
/// held there while nothing else of the process could run.
///
/// It also enforces the request's timeout, as time without progress, to the millisecond: the streamed path reports
/// progress through ``touch()``; the fast path has none, so there the timeout bounds the whole exchange. A cancel or
/// a timeout gives the waiting caller its error at once (``onGiveUp(_:)``), whether or not URLSession is free to
/// report the task's end.
final class TaskControl: Sendable {
    private struct State {
        var task: URLSessionTask?
        var cancelled = false
        var finished = false
        var timedOut = false
        var lastActivity = DispatchTime.now()
        var giveUp: (@Sendable (_ timedOut: Bool) -> Void)?
    }

    /// Where every control calls into URLSession. One serial queue for the process, so that at most one of
    /// Dispatch's threads waits inside FoundationNetworking at a time: a queue per transport let hundreds of them
    /// wait at once, more threads than Dispatch makes, and the session queues they waited for had no thread left to
    /// run on (a test run hung that way).
    static let queue = DispatchQueue(label: "Girders.URLSessionTransport.tasks")

    private let state = LockedState(State())
    private let timeout: TimeInterval?

    /// A control that enforces `timeout` itself, or none (`nil`: URLSession keeps it).
    init(timeout: TimeInterval?) {
        self.timeout = timeout
    }

    var identifier: Int { state.withLock { $0.task?.taskIdentifier ?? -1 } }

    /// What ends the caller's wait at once on a cancel or a timeout (`timedOut` says which).
    func onGiveUp(_ giveUp: @escaping @Sendable (_ timedOut: Bool) -> Void) {
        state.withLock { $0.giveUp = giveUp }
    }

    /// Whether the task was cancelled because the timeout passed without progress.
    var timedOut: Bool { state.withLock { $0.timedOut } }

    /// Makes the task with `makeTask` and starts it, on ``queue``; returns at once.
    func start(_ makeTask: @escaping @Sendable () -> URLSessionTask) {
        Self.queue.async { [self] in
            let task = makeTask()
            // A cancel that came before `makeTask` gave the caller a way to end its wait is answered now.
            let (cancelled, giveUp) = state.withLock { state in
                state.task = task
                state.lastActivity = .now()
                return (state.cancelled, state.cancelled ? state.giveUp : nil)
            }
            task.resume()
            if cancelled {
                task.cancel()
                giveUp?(false)
            }
            if let timeout { watch(after: timeout) }
        }
    }

    /// Cancels the task (on ``queue``) and ends the caller's wait at once.
    func cancel() {
        let (task, giveUp) = state.withLock { state in
            state.cancelled = true
            return (state.finished ? nil : state.task, state.finished ? nil : state.giveUp)
        }
        if let task { Self.queue.async { task.cancel() } }
        giveUp?(false)
    }

    /// Progress: the timeout counts from now.
    func touch() {
        state.withLock { $0.lastActivity = .now() }
    }

    /// The task ended; the watchdog stops.
    func finish() {
        state.withLock { $0.finished = true }
    }

    private func watch(after seconds: TimeInterval) {
        guard seconds.isFinite, seconds >= 0 else { return }
        let delay = DispatchTimeInterval.nanoseconds(Int(min(seconds, 31_536_000) * 1e9))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            typealias Check = (
                expired: Bool, remaining: TimeInterval, task: URLSessionTask?,
                giveUp: (@Sendable (Bool) -> Void)?
            )
            let (expired, remaining, task, giveUp): Check = state.withLock { state in
                guard !state.finished, let timeout else { return (false, -1, nil, nil) }
                let idle = Double(DispatchTime.now().uptimeNanoseconds &- state.lastActivity.uptimeNanoseconds) / 1e9
                if idle < timeout { return (false, timeout - idle, nil, nil) }
                state.timedOut = true
                return (true, 0, state.task, state.giveUp)
            }
            if expired {
                task?.cancel()
                giveUp?(true)
            } else if remaining >= 0 {
                watch(after: remaining)
            }
        }
    }
}
