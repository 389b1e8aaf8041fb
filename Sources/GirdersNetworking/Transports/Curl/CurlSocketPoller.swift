#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation
import GirdersSupport
import Glibc

/// One thread for the whole process that waits until the sockets of connect-only connections (WebSockets over
/// libcurl) can be read or written, and wakes the tasks waiting for them: a connection nobody reads costs no
/// thread, and no Swift thread ever blocks on a socket.
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
        let socket: Int32
        let events: Int16
        let deadline: ContinuousClock.Instant?
        let continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        var next: UInt64 = 0
        var started = false
    }

    private let state = LockedState(State())
    /// The self-pipe that wakes the thread when the set of waiters changed: read end, write end.
    private let wake: (Int32, Int32)?

    private init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            wake = (ends[0], ends[1])
        } else {
            wake = nil
        }
    }

    /// Whether the poller works (a pipe could be made).
    var isAvailable: Bool { wake != nil }

    /// Waits until `socket` is ready for `events` (`POLLIN`, `POLLOUT`), `deadline` passed, or the socket was
    /// released. `register` runs under the poller's lock first and may refuse the wait (the connection closed): the
    /// wait then ends at once as released.
    func wait(
        _ socket: Int32, for events: Int16, until deadline: ContinuousClock.Instant? = nil,
        unless closed: @Sendable () -> Bool
    ) async -> Outcome {
        guard let wake else { return .released }
        return await withCheckedContinuation { continuation in
            let accepted = state.withLock { state -> Bool in
                if closed() { return false }
                state.next += 1
                state.waiters[state.next] = Waiter(
                    socket: socket, events: events, deadline: deadline, continuation: continuation)
                if !state.started {
                    state.started = true
                    startThread()
                }
                return true
            }
            guard accepted else { return continuation.resume(returning: .released) }
            var byte: UInt8 = 1
            _ = Glibc.write(wake.1, &byte, 1)
        }
    }

    /// Ends every wait on `socket` (its connection is closing), and wakes the thread so that its `poll` lets go of
    /// the socket: while a `poll` holds it, closing the descriptor does not close the connection (no FIN is sent).
    func release(_ socket: Int32) {
        let released = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            let ids = state.waiters.filter { $0.value.socket == socket }.map(\.key)
            return ids.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in released { continuation.resume(returning: .released) }
        if !released.isEmpty, let wake {
            var byte: UInt8 = 1
            _ = Glibc.write(wake.1, &byte, 1)
        }
    }

    private func startThread() {
        let thread = Thread { [self] in
            girders_name_current_thread("girders-sockets")
            run()
        }
        thread.start()
    }

    /// Polls the waiting sockets and the wake pipe, forever (the poller lives as long as the process).
    private func run() {
        guard let wake else { return }
        while true {
            let (ids, descriptors, timeout) = state.withLock { state -> ([UInt64], [pollfd], Int32) in
                var ids: [UInt64] = []
                var descriptors = [pollfd(fd: wake.0, events: Int16(POLLIN), revents: 0)]
                var soonest: ContinuousClock.Instant?
                for (id, waiter) in state.waiters {
                    ids.append(id)
                    descriptors.append(pollfd(fd: waiter.socket, events: waiter.events, revents: 0))
                    if let deadline = waiter.deadline { soonest = min(soonest ?? deadline, deadline) }
                }
                guard let soonest else { return (ids, descriptors, -1) }
                let left = ContinuousClock.now.duration(to: soonest)
                let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                return (ids, descriptors, Int32(clamping: max(0, milliseconds + 1)))
            }
            var polled = descriptors
            _ = poll(&polled, nfds_t(polled.count), timeout)
            if polled[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while Glibc.read(wake.0, &drain, drain.count) > 0 {}
            }
            let now = ContinuousClock.now
            let woken = state.withLock { state -> [(CheckedContinuation<Outcome, Never>, Outcome)] in
                var woken: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
                for (index, id) in ids.enumerated() {
                    guard let waiter = state.waiters[id] else { continue }
                    if polled[index + 1].revents != 0 {
                        state.waiters[id] = nil
                        woken.append((waiter.continuation, .ready))
                    } else if let deadline = waiter.deadline, deadline <= now {
                        state.waiters[id] = nil
                        woken.append((waiter.continuation, .timedOut))
                    }
                }
                return woken
            }
            for (continuation, outcome) in woken { continuation.resume(returning: outcome) }
        }
    }
}
#endif
