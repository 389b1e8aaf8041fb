import GirdersSupport

#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation

/// A libcurl easy handle. `@unchecked Sendable`: one transfer uses it at a time, configured by the caller that took
/// it from the pool and then only by the driver of the multi handle (``CurlDriving``), until it is reset and put
/// back.
struct CurlEasyHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// libcurl's multi interface on one thread of its own: it adds and removes transfers, waits in `curl_multi_poll`
/// (woken by `curl_multi_wakeup` when a request or a cancellation arrives), enforces idle timeouts to the
/// millisecond, and resumes each caller once its transfer ends. With nothing in flight the thread parks outside
/// libcurl, and the next caller drives the multi handle on its own thread (``driveOnCallersThread(_:)``, in
/// CurlDriving.swift) until its transfer ends or it hands the transfer over. Connections are kept alive and reused
/// across transfers by the multi handle's connection cache; easy handles are pooled.
final class CurlEngine: Sendable {
    enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        /// The app caught up (a streamed body's reader, a streamed request body's producer): libcurl may go on.
        case resume(CurlTransfer)
        /// A job of a task that prefers the engine's thread (``CurlEngineExecutor``), run between libcurl's calls.
        case job(UnownedJob, UnownedTaskExecutor)
    }

    struct State {
        var commands: [Command] = []
        var idleHandles: [CurlEasyHandle] = []
        var stopped = false
        /// Whether the thread waits (or is about to wait) in `curl_multi_poll`: only then is it woken.
        var waiting = false
        /// Whether the thread is parked on ``unparking`` with nothing in flight, outside libcurl: a caller may then
        /// drive libcurl itself (``driveOnCallersThread(_:)``). Whoever sets it back to `false` signals once.
        var parked = false
        /// Whether a caller drives libcurl (only while the thread is parked, which it leaves parked).
        var callerDrives = false
        /// Requests that go to the thread before a caller drives again, after drives whose response did not come
        /// in their window (doubling with each such drive, up to 63; reset by one that came in time).
        var drivesToSkip = 0
        var missedDrives = 0
    }

    /// The multi handle. `@unchecked Sendable`: only the driver of the moment uses it (the engine's thread, or a
    /// caller while that thread is parked), but for `curl_multi_wakeup`, which libcurl documents as callable from any
    /// thread; it is cleaned up by the engine's thread as it ends.
    struct Multi: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    let state = LockedState(State())
    /// Signalled once each time the parked thread is let go (``State/parked`` set back to `false`).
    let unparking = DispatchSemaphore(value: 0)
    /// What the driver of the moment (the thread, or a caller while the thread is parked) keeps between rounds.
    let driving = CurlDriving()
    /// Under ThreadSanitizer only: held by the engine's thread while it resumes a caller, and taken once by the
    /// caller after it is resumed. A resume that lands before the caller suspended is handed over inside the
    /// concurrency runtime, which ThreadSanitizer cannot see, so it took the caller's next use of the
    /// continuation's memory for a race with the resume's reads (swiftlang/swift#57803). The runtime orders the two
    /// in every build; the lock only shows it to ThreadSanitizer, so other builds skip it (with 16 requests in
    /// flight, both sides contending for it cost several per cent of the rate in Scripts/compare-http.sh).
    private let handoffs = LockedState(0)
    private static let showsHandOff = Sanitizers.thread
    let multi: Multi?
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

    /// How long a caller drives its own transfer before handing it to the thread (``driveOnCallersThread(_:)``).
    let callersWindow: UInt64

    init(maximumConnectionsPerHost: Int, callersWindowNanoseconds: UInt64 = CurlEngine.callersWindowNanoseconds) {
        callersWindow = callersWindowNanoseconds
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
        let unparks = state.withLock { state in
            state.stopped = true
            return state.letGo()
        }
        if unparks { unparking.signal() }
        wake()
    }

    /// Runs `job` on the engine's thread (for ``CurlEngineExecutor``); `false` once the engine stopped.
    func enqueue(_ job: UnownedJob, on executor: UnownedTaskExecutor) -> Bool {
        send(.job(job, executor))
    }

    /// Queues `command` and wakes the thread if it waits (a wake-up costs a system call on each side).
    private func send(_ command: Command) -> Bool {
        let (accepted, sleeping, unparks) = state.withLock { state -> (Bool, Bool, Bool) in
            guard !state.stopped else { return (false, false, false) }
            state.commands.append(command)
            if state.letGo() { return (true, false, true) }
            // A caller driving libcurl sees the command after its poll, and hands over to the thread.
            return (true, state.waiting || state.callerDrives, false)
        }
        if unparks {
            unparking.signal()
        } else if sleeping {
            wake()
        }
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
        let drive = driveOnCallersThread(transfer)
        if drive == .finished { return transfer.outcome }
        return await withTaskCancellationHandler {
            // Unsafe (no checking canary, about 5% more requests/s with 16 in flight): resumed exactly once, by
            // `complete` (which takes it from the transfer on the engine's thread) or below when the engine stopped.
            // Tested by CurlLoadTests, which cancels half of 1,000 transfers in flight, racing their completion.
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                // Set before the transfer is queued; the thread reads it only after taking the command under the lock.
                transfer.continuation = continuation
                if drive == .handedOver {
                    handOver()  // the thread takes the transfer where the caller left it, and resumes the caller
                } else if !send(.add(transfer)) {
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

    func wake() {
        if let multi { _ = curl_multi_wakeup(multi.pointer) }
    }

    // MARK: The engine's thread

    private func loop(_ multi: UnsafeMutableRawPointer) {
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
                        admit(transfer, multi)
                    }
                case .cancel(let transfer):
                    switch transfer.phase {
                    case .waiting: transfer.phase = .cancelledBeforeStart
                    case .held: finish(transfer, .cancelled(url: transfer.wire.url), multi)
                    case .running:
                        driving.running[Self.key(transfer.handle.pointer)] = nil
                        finish(transfer, .cancelled(url: transfer.wire.url), multi)
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
                for transfer in driving.running.values {
                    end(transfer, .cancelled(url: transfer.wire.url), multi: multi)
                }
                for transfer in driving.gate.heldTransfers {
                    end(transfer, .cancelled(url: transfer.wire.url), multi: nil)
                }
                break
            }
            if performRound(multi) { continue }  // let libcurl start the released transfers before waiting
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= driving.nextTimeoutScan { scanTimeouts(now: now, multi) }
            var wait = 1_000
            if driving.nearestDeadline != UInt64.max {
                let nearest = driving.nearestDeadline
                wait = min(wait, Int((nearest > now ? nearest - now : 0) / 1_000_000) + 1)
            }
            var curlWait = -1
            _ = curl_multi_timeout(multi, &curlWait)
            if curlWait >= 0 { wait = min(wait, curlWait) }
            guard wait > 0 else { continue }
            if driving.isIdle {
                // Nothing in flight: wait outside libcurl, so that the next caller may drive it on its own thread.
                let parks = state.withLock { state in
                    state.parked = state.commands.isEmpty && !state.stopped
                    return state.parked
                }
                if parks { unparking.wait() }
                continue
            }
            // With transfers in flight, a caller that just got its response usually sends the next request within
            // microseconds, and a response on loopback arrives as fast: look for both a few times before sleeping,
            // which saves a wake-up on each side. (With callers on CurlEngineExecutor the next request comes from
            // this thread, but the spin still pays: without it, one after another, 80% of C's rate instead of 126%,
            // for the same CPU per request.)
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
    func end(_ transfer: CurlTransfer, _ error: ResponseError, multi: UnsafeMutableRawPointer?) {
        if let multi, transfer.phase == .running { _ = curl_multi_remove_handle(multi, transfer.handle.pointer) }
        // (A held transfer was never added to libcurl: `multi` is nil for it.)
        complete(transfer, transfer.finish(CURLE_OK, stop: error))
    }

    func complete(_ transfer: CurlTransfer, _ result: Result<Void, ResponseError>) {
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

    static func key(_ easy: UnsafeMutableRawPointer) -> UInt {
        UInt(bitPattern: easy)
    }
}
#endif
