#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation
import GirdersSupport
import Glibc

/// One thread for the whole process that waits (with epoll) until the sockets of connect-only connections
/// (connections that switched protocols, over libcurl) can be read or written, and wakes the tasks waiting for them: a connection nobody reads
/// costs no thread, and no Swift thread ever blocks on a socket.
///
/// A wait arms its socket once (`EPOLLONESHOT`) from the waiting task's own thread, so the poller's thread is not
/// woken to learn of it; a read and a write may wait on one socket at once. A wait with a deadline (the handshake's
/// head) wakes the thread through an eventfd when it is sooner than the one it sleeps for.
final class CurlSocketPoller: Sendable {
    static let shared = CurlSocketPoller()

    /// How a wait ended.
    enum Outcome: Sendable {
        /// The socket is ready (or has an error or hung up: the next call on it tells).
        case ready
        /// ``release(_:)`` was called for the socket.
        case released
        /// The deadline passed.
        case timedOut
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Outcome, Never>
        let deadline: ContinuousClock.Instant?
        /// The connection waiting: a descriptor number outlives its socket (libcurl may close one, and the number is
        /// given to the next socket), so a release names its connection and ends only that connection's waits.
        let owner: ObjectIdentifier
    }

    /// The waits on one socket: at most a read and a write (one reader and one writer per connection).
    private struct Socket {
        var read: Waiter?
        var write: Waiter?

        var waits: Bool { read != nil || write != nil }
    }

    private struct State {
        var sockets: [Int32: Socket] = [:]
        /// Jobs of tasks that prefer the poller's thread (``executor``), to run between waits.
        var jobs: [UnownedJob] = []
        /// The poller's thread, once it runs.
        var thread: pthread_t?
        var started = false
        /// The deadline the thread sleeps until, if any.
        var sleepsUntil: ContinuousClock.Instant?
    }

    private let state = LockedState(State())
    private let epoll: Int32
    private let wake: Int32

    private init() {
        epoll = girders_waits_create()
        wake = epoll >= 0 ? girders_waits_add_wake(epoll) : -1
    }

    /// The poller's thread as a `TaskExecutor`: a connection's read loop runs there (``CurlSocketChannel``), so a
    /// socket that became readable is read on the thread that saw it, with no hand-over to another thread. What runs
    /// there delays every other socket's wake-up while it runs: reading, framing and handing messages over only.
    let executor = CurlSocketExecutor()

    /// Runs `job` on the poller's thread, between waits.
    func enqueue(_ job: UnownedJob) {
        let wakeThread = state.withLock { state -> Bool in
            state.jobs.append(job)
            if !state.started {
                state.started = true
                startThread()
            }
            // The thread runs its jobs before it waits again: only a job from elsewhere needs to wake it.
            return state.jobs.count == 1 && !(state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        if wakeThread { girders_waits_wake(wake) }
    }

    /// Waits until `socket` is ready for reading (`write` false) or writing, `deadline` passed, or the socket was
    /// released. `closed` runs under the poller's lock first and may refuse the wait (the connection closed): it then
    /// ends at once as released.
    func wait(
        _ socket: Int32, for owner: ObjectIdentifier, write: Bool = false,
        until deadline: ContinuousClock.Instant? = nil, unless closed: @Sendable () -> Bool
    ) async -> Outcome {
        guard epoll >= 0, wake >= 0 else { return .released }
        return await withCheckedContinuation { continuation in
            let (accepted, wakeThread) = state.withLock { state -> (Bool, Bool) in
                if closed() { return (false, false) }
                var entry = state.sockets[socket] ?? Socket()
                // A waiter of another connection under this number is stale (its socket is gone): it ends now.
                for stale in [entry.read, entry.write].compactMap({ $0 }) where stale.owner != owner {
                    stale.continuation.resume(returning: .released)
                }
                if entry.read?.owner != owner { entry.read = nil }
                if entry.write?.owner != owner { entry.write = nil }
                let waiter = Waiter(continuation: continuation, deadline: deadline, owner: owner)
                if write { entry.write = waiter } else { entry.read = waiter }
                arm(socket, entry)
                state.sockets[socket] = entry
                if !state.started {
                    state.started = true
                    startThread()
                }
                guard let deadline else { return (true, false) }
                return (true, state.sleepsUntil.map { deadline < $0 } ?? true)
            }
            guard accepted else { return continuation.resume(returning: .released) }
            if wakeThread { girders_waits_wake(wake) }
        }
    }

    /// Ends the waits of `owner` on `socket` (its connection is closing) and forgets the socket, before its
    /// descriptor is closed. Waits of another connection under the same number are left alone.
    func release(_ socket: Int32, for owner: ObjectIdentifier) {
        let waiters = state.withLock { state -> [Waiter] in
            guard var entry = state.sockets[socket] else { return [] }
            let mine = [entry.read, entry.write].compactMap { $0 }.filter { $0.owner == owner }
            if entry.read?.owner == owner { entry.read = nil }
            if entry.write?.owner == owner { entry.write = nil }
            if entry.waits {
                state.sockets[socket] = entry
            } else {
                state.sockets[socket] = nil
                girders_waits_remove(epoll, socket)
            }
            return mine
        }
        for waiter in waiters { waiter.continuation.resume(returning: .released) }
    }

    private func startThread() {
        let thread = Thread { [self] in
            girders_name_current_thread("girders-sockets")
            run()
        }
        thread.start()
    }

    /// Waits for events and deadlines, forever (the poller lives as long as the process).
    private func run() {
        var sockets = [Int32](repeating: 0, count: 64)
        var flags = [Int32](repeating: 0, count: 64)
        state.withLock { $0.thread = pthread_self() }
        while true {
            runJobs()
            let timeout = state.withLock { state -> Int32 in
                if !state.jobs.isEmpty { return 0 }
                let soonest = state.sockets.values.flatMap { [$0.read?.deadline, $0.write?.deadline] }
                    .compactMap { $0 }.min()
                state.sleepsUntil = soonest
                guard let soonest else { return -1 }
                let left = ContinuousClock.now.duration(to: soonest)
                let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                return Int32(clamping: max(0, milliseconds + 1))
            }
            let count = girders_waits_wait(epoll, &sockets, &flags, Int32(sockets.count), timeout)
            var woken: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
            state.withLock { state in
                for index in 0..<max(0, Int(count)) {
                    let socket = sockets[index]
                    let got = flags[index]
                    if socket == wake {
                        girders_waits_drain(wake)
                        continue
                    }
                    guard var entry = state.sockets[socket] else { continue }
                    let failed = got & 4 != 0
                    if got & 1 != 0 || failed, let read = entry.read {
                        woken.append((read.continuation, .ready))
                        entry.read = nil
                    }
                    if got & 2 != 0 || failed, let write = entry.write {
                        woken.append((write.continuation, .ready))
                        entry.write = nil
                    }
                    rearm(socket, &entry)
                    state.sockets[socket] = entry
                }
                let now = ContinuousClock.now
                for (socket, var entry) in state.sockets {
                    var changed = false
                    if let read = entry.read, let deadline = read.deadline, deadline <= now {
                        woken.append((read.continuation, .timedOut))
                        entry.read = nil
                        changed = true
                    }
                    if let write = entry.write, let deadline = write.deadline, deadline <= now {
                        woken.append((write.continuation, .timedOut))
                        entry.write = nil
                        changed = true
                    }
                    if changed {
                        rearm(socket, &entry)
                        state.sockets[socket] = entry
                    }
                }
            }
            for (continuation, outcome) in woken { continuation.resume(returning: outcome) }
        }
    }

    /// Runs the jobs enqueued so far (and those they enqueue) on this thread.
    private func runJobs() {
        let executor = self.executor.asUnownedTaskExecutor()
        while true {
            let jobs = state.withLock { state -> [UnownedJob] in
                defer { state.jobs = [] }
                return state.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: executor) }
        }
    }

    /// Arms `socket` again for the waits it still has (a one-shot event disarmed it).
    private func rearm(_ socket: Int32, _ entry: inout Socket) {
        guard entry.waits else { return }
        arm(socket, entry)
    }

    /// Arms `socket` for `entry`'s waits: changed if epoll has it, else added (epoll forgets a socket once its
    /// descriptor closes, and the number may now be another socket's).
    private func arm(_ socket: Int32, _ entry: Socket) {
        let read: Int32 = entry.read == nil ? 0 : 1
        let write: Int32 = entry.write == nil ? 0 : 1
        if girders_waits_arm(epoll, socket, read, write, 1) != 0 {
            _ = girders_waits_arm(epoll, socket, read, write, 0)
        }
    }
}
/// ``CurlSocketPoller``'s thread as a `TaskExecutor`.
final class CurlSocketExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        CurlSocketPoller.shared.enqueue(UnownedJob(job))
    }
}
#endif
