import GirdersSupport

#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation

/// A libcurl easy handle. `@unchecked Sendable`: one transfer uses it at a time, configured by the caller that took
/// it from the pool and then only on the engine's thread, until the engine resets it and puts it back.
struct CurlEasyHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// libcurl's multi interface on one thread of its own: it adds and removes transfers, waits in `curl_multi_poll`
/// (woken by `curl_multi_wakeup` when a request or a cancellation arrives), enforces idle timeouts to the
/// millisecond, and resumes each caller once its transfer ends. Connections are kept alive and reused across
/// transfers by the multi handle's connection cache; easy handles are pooled.
final class CurlEngine: Sendable {
    private enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        /// The app caught up (a streamed body's reader, a streamed request body's producer): libcurl may go on.
        case resume(CurlTransfer)
        /// A job of a task that prefers the engine's thread (``CurlEngineExecutor``), run between libcurl's calls.
        case job(UnownedJob, UnownedTaskExecutor)
    }

    private struct State {
        var commands: [Command] = []
        var idleHandles: [CurlEasyHandle] = []
        var stopped = false
        /// Whether the thread waits (or is about to wait) in `curl_multi_poll`: only then is it woken.
        var waiting = false
    }

    /// The multi handle. `@unchecked Sendable`: only the engine's thread uses it, but for `curl_multi_wakeup`,
    /// which libcurl documents as callable from any thread; it is cleaned up by that thread as it ends.
    private struct Multi: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private let state = LockedState(State())
    /// Under ThreadSanitizer only: held by the engine's thread while it resumes a caller, and taken once by the
    /// caller after it is resumed. A resume that lands before the caller suspended is handed over inside the
    /// concurrency runtime, which ThreadSanitizer cannot see, so it took the caller's next use of the
    /// continuation's memory for a race with the resume's reads (swiftlang/swift#57803). The runtime orders the two
    /// in every build; the lock only shows it to ThreadSanitizer, so other builds skip it (with 16 requests in
    /// flight, both sides contending for it cost several per cent of the rate in Scripts/compare-http.sh).
    private let handoffs = LockedState(0)
    private static let showsHandOff = Sanitizers.thread
    private let multi: Multi?
    /// Why libcurl could not be set up, if it could not.
    let setupFailure: String?

    /// The name of the engine's thread.
    static let threadName = "girders.curl"

    /// The most easy handles kept for reuse.
    static let poolLimit = 64

    /// Why libcurl cannot be used in this process (see ``CurlTransport/libraryFailure``), or `nil` once it is
    /// loaded and initialised.
    static let globalSetup: String? = {
        if let failure = girders_curl_load() { return String(cString: failure) }
        let code = curl_global_init(Int(CURL_GLOBAL_ALL))
        return code == CURLE_OK ? nil : "curl_global_init failed: \(String(cString: curl_easy_strerror(code)))"
    }()

    init(maximumConnectionsPerHost: Int) {
        if let failure = Self.globalSetup {
            multi = nil
            setupFailure = failure
            return
        }
        guard let pointer = curl_multi_init() else {
            multi = nil
            setupFailure = "libcurl could not be initialised (curl_multi_init)"
            return
        }
        multi = Multi(pointer: pointer)
        setupFailure = nil
        if maximumConnectionsPerHost > 0 {
            _ = girders_multi_set_long(pointer, CURLMOPT_MAX_HOST_CONNECTIONS, maximumConnectionsPerHost)
        }
        let multiHandle = Multi(pointer: pointer)
        let thread = Thread { [self] in
            // Named for debuggers, profilers and `top -H` (Foundation's name is not the system thread's on Linux).
            girders_name_current_thread(Self.threadName)
            self.loop(multiHandle.pointer)
        }
        thread.name = Self.threadName
        thread.start()
    }

    /// Ends the thread: running transfers end as cancelled.
    func stop() {
        state.withLock { $0.stopped = true }
        wake()
    }

    /// Runs `job` on the engine's thread (for ``CurlEngineExecutor``); `false` once the engine stopped.
    func enqueue(_ job: UnownedJob, on executor: UnownedTaskExecutor) -> Bool {
        send(.job(job, executor))
    }

    /// Queues `command` and wakes the thread if it waits (a wake-up costs a system call on each side).
    private func send(_ command: Command) -> Bool {
        let (accepted, sleeping) = state.withLock { state -> (Bool, Bool) in
            guard !state.stopped else { return (false, false) }
            state.commands.append(command)
            return (true, state.waiting)
        }
        if sleeping { wake() }
        return accepted
    }

    /// An easy handle from the pool, or a new one.
    func takeHandle() -> CurlEasyHandle? {
        if let handle = state.withLock({ $0.idleHandles.popLast() }) { return handle }
        return curl_easy_init().map(CurlEasyHandle.init)
    }

    /// Resets `handle` and keeps it for reuse (or frees it when the pool is full or the engine stopped).
    func giveBack(_ handle: CurlEasyHandle) {
        curl_easy_reset(handle.pointer)
        let kept = state.withLock { state in
            guard !state.stopped, state.idleHandles.count < Self.poolLimit else { return false }
            state.idleHandles.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle.pointer) }
    }

    /// Runs `transfer` to its end; cancelling the calling task stops it at once. A streamed body's reader that
    /// lags pauses it (``ResponseSink``'s back-pressure), and catching up resumes it.
    func run(_ transfer: CurlTransfer) async -> Result<Void, ResponseError> {
        if transfer.sink.destination == .stream {
            // `pause` runs on the engine's thread, inside the sink's receive from a libcurl callback: a decoded
            // piece the sink took past its high-water mark holds the next piece back (CurlTransfer.receiveCoded).
            transfer.sink.onBackPressure(pause: { [weak transfer] in transfer?.pauseRequested = true }) {
                [weak self, weak transfer] in
                if let self, let transfer { _ = self.send(.resume(transfer)) }
            }
        }
        transfer.body?.onAvailable { [weak self, weak transfer] in
            if let self, let transfer { _ = self.send(.resume(transfer)) }
        }
        return await withTaskCancellationHandler {
            // Unsafe (no checking canary, about 5% more requests/s with 16 in flight): resumed exactly once, by
            // `complete` (which takes it from the transfer on the engine's thread) or below when the engine stopped.
            // Tested by CurlLoadTests, which cancels half of 1,000 transfers in flight, racing their completion.
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                // Set before the transfer is queued; the thread reads it only after taking the command under the lock.
                transfer.continuation = continuation
                if !send(.add(transfer)) {
                    transfer.continuation = nil
                    transfer.settle(.failure(.cancelled(url: transfer.wire.url)))
                    continuation.resume()
                }
            }
            if Self.showsHandOff { handoffs.withLock { _ in } }
            return transfer.outcome
        } onCancel: {
            _ = send(.cancel(transfer))
        }
    }

    private func wake() {
        if let multi { _ = curl_multi_wakeup(multi.pointer) }
    }

    // MARK: The engine's thread

    private func loop(_ multi: UnsafeMutableRawPointer) {
        var running: [UInt: CurlTransfer] = [:]
        var gate = CurlOriginGate()
        var nextTimeoutScan = DispatchTime.now().uptimeNanoseconds
        var nearestDeadline = UInt64.max
        /// Adds `transfer` to libcurl as `gate` decided, or ends it when libcurl refuses.
        func start(_ transfer: CurlTransfer, pipeWait: Bool) {
            transfer.prepareStart(pipeWait: pipeWait)
            if curl_multi_add_handle(multi, transfer.handle.pointer) == CURLM_OK {
                transfer.phase = .running
                transfer.lastActivity = DispatchTime.now().uptimeNanoseconds
                running[Self.key(transfer.handle.pointer)] = transfer
                nearestDeadline = min(nearestDeadline, transfer.lastActivity &+ transfer.timeoutNanoseconds)
            } else {
                finish(transfer, .transport(url: transfer.wire.url, code: 0, reason: "libcurl refused the transfer"))
            }
        }
        /// Ends `transfer` (removed from libcurl when it was added) and starts the scout that takes its place.
        func finish(_ transfer: CurlTransfer, _ error: ResponseError? = nil, code: CURLcode = CURLE_OK) {
            let wasRunning = transfer.phase == .running
            if let error {
                end(transfer, error, multi: wasRunning ? multi : nil)
            } else {
                complete(transfer, transfer.finish(code))
            }
            if let next = gate.ended(transfer) { start(next, pipeWait: false) }
        }
        /// The commands being run; swapped with the queue's array, so neither is reallocated on every round.
        var commands: [Command] = []
        while true {
            commands.removeAll(keepingCapacity: true)
            let stopped = state.withLock { state in
                swap(&commands, &state.commands)
                return state.stopped
            }
            for command in commands {
                switch command {
                case .add(let transfer):
                    if transfer.phase == .cancelledBeforeStart {
                        end(transfer, .cancelled(url: transfer.wire.url), multi: nil)
                    } else {
                        switch gate.admit(transfer) {
                        case .start(let pipeWait): start(transfer, pipeWait: pipeWait)
                        case .held:
                            transfer.phase = .held
                            transfer.lastActivity = DispatchTime.now().uptimeNanoseconds
                        }
                    }
                case .cancel(let transfer):
                    switch transfer.phase {
                    case .waiting: transfer.phase = .cancelledBeforeStart
                    case .held: finish(transfer, .cancelled(url: transfer.wire.url))
                    case .running:
                        running[Self.key(transfer.handle.pointer)] = nil
                        finish(transfer, .cancelled(url: transfer.wire.url))
                    case .cancelledBeforeStart, .finished: break
                    }
                case .resume(let transfer):
                    transfer.pauseRequested = false
                    guard transfer.phase == .running, transfer.pausedForApp else { break }
                    transfer.pausedForApp = false
                    transfer.active = true
                    // libcurl may hand over the held piece of the body from inside this call.
                    _ = curl_easy_pause(transfer.handle.pointer, CURLPAUSE_CONT)
                case .job(let job, let executor):
                    job.runSynchronously(on: executor)
                }
            }
            if stopped {
                for transfer in running.values {
                    end(transfer, .cancelled(url: transfer.wire.url), multi: multi)
                }
                for transfer in gate.heldTransfers { end(transfer, .cancelled(url: transfer.wire.url), multi: nil) }
                break
            }
            var stillRunning: Int32 = 0
            _ = curl_multi_perform(multi, &stillRunning)
            // Scouts whose connection is made let the transfers of their origin go, before any of them ends.
            let released = gate.releaseConnected()
            for transfer in released where transfer.phase == .held { start(transfer, pipeWait: true) }
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                var code = CURLE_OK
                guard let easy = girders_multi_done(message, &code),
                    let transfer = running.removeValue(forKey: Self.key(easy))
                else { continue }
                _ = curl_multi_remove_handle(multi, easy)
                finish(transfer, code: code)
            }
            if !released.isEmpty { continue }  // let libcurl start them before waiting
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= nextTimeoutScan {
                // Activity only moves deadlines later, so the nearest one found here is never too late. Progress
                // since the last scan counts as made now: a deadline is kept to within the scan interval, late
                // rather than early, and libcurl's callbacks read no clock.
                nearestDeadline = UInt64.max
                for (key, transfer) in running {
                    if transfer.active || transfer.pausedForApp {
                        transfer.active = false
                        transfer.lastActivity = now
                    }
                    let deadline = transfer.lastActivity &+ transfer.timeoutNanoseconds
                    if deadline <= now {
                        running[key] = nil
                        finish(transfer, .timedOut(url: transfer.wire.url))
                    } else {
                        nearestDeadline = min(nearestDeadline, deadline)
                    }
                }
                // A held transfer's time runs too: it waits for a connection, as libcurl's own would.
                for transfer in gate.heldTransfers {
                    let deadline = transfer.lastActivity &+ transfer.timeoutNanoseconds
                    if deadline <= now {
                        finish(transfer, .timedOut(url: transfer.wire.url))
                    } else {
                        nearestDeadline = min(nearestDeadline, deadline)
                    }
                }
                nextTimeoutScan = now + 2_000_000
            }
            var wait = 1_000
            if nearestDeadline != UInt64.max {
                wait = min(wait, Int((nearestDeadline > now ? nearestDeadline - now : 0) / 1_000_000) + 1)
            }
            var curlWait = -1
            _ = curl_multi_timeout(multi, &curlWait)
            if curlWait >= 0 { wait = min(wait, curlWait) }
            guard wait > 0 else { continue }
            // A caller that just got its response usually sends the next request within microseconds, and a
            // response on loopback arrives as fast: look for both a few times before sleeping, which saves a
            // wake-up on each side (measured: 10k → 18k sequential requests/s; no loss with 16 in flight).
            // (With callers on CurlEngineExecutor the next request comes from this thread, but the spin still pays:
            // without it, one after another, 80% of C's rate instead of 126%, for the same CPU per request.)
            if spinBeforeWaiting(multi) { continue }
            let mayWait = state.withLock { state in
                state.waiting = state.commands.isEmpty && !state.stopped
                return state.waiting
            }
            if mayWait {
                _ = curl_multi_poll(multi, nil, 0, Int32(wait), nil)
                state.withLock { $0.waiting = false }
            }
        }
        let idle = state.withLock { state in
            defer { state.idleHandles = [] }
            return state.idleHandles
        }
        for handle in idle { curl_easy_cleanup(handle.pointer) }
        let pending = state.withLock { state in
            defer { state.commands = [] }
            return state.commands
        }
        for command in pending {
            switch command {
            case .add(let transfer): end(transfer, .cancelled(url: transfer.wire.url), multi: nil)
            case .job(let job, _): CurlEngineExecutor.runElsewhere(job)
            case .cancel, .resume: break
            }
        }
        curl_multi_cleanup(multi)
    }

    /// Polls without blocking for up to about 50 µs; `true` as soon as a command or a socket event is there.
    private func spinBeforeWaiting(_ multi: UnsafeMutableRawPointer) -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        var rounds = 0
        while true {
            if state.withLock({ !$0.commands.isEmpty || $0.stopped }) { return true }
            var events: Int32 = 0
            if curl_multi_poll(multi, nil, 0, 0, &events) == CURLM_OK, events > 0 { return true }
            rounds += 1
            if rounds % 8 == 0, DispatchTime.now().uptimeNanoseconds &- start >= 50_000 { return false }
        }
    }

    /// Stops `transfer` with `error` (removing it from `multi` when it was added) and resumes its caller.
    private func end(_ transfer: CurlTransfer, _ error: ResponseError, multi: UnsafeMutableRawPointer?) {
        if let multi, transfer.phase == .running { _ = curl_multi_remove_handle(multi, transfer.handle.pointer) }
        // (A held transfer was never added to libcurl: `multi` is nil for it.)
        complete(transfer, transfer.finish(CURLE_OK, stop: error))
    }

    private func complete(_ transfer: CurlTransfer, _ result: Result<Void, ResponseError>) {
        let continuation = transfer.continuation
        transfer.continuation = nil
        transfer.release()
        giveBack(transfer.handle)
        transfer.settle(result)
        if Self.showsHandOff {
            handoffs.withLock { handoffs in
                handoffs &+= 1
                continuation?.resume()
            }
        } else {
            continuation?.resume()
        }
    }

    private static func key(_ easy: UnsafeMutableRawPointer) -> UInt {
        UInt(bitPattern: easy)
    }
}
#endif
