#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation

/// What the driver of a ``CurlEngine``'s multi handle keeps between its rounds: the transfers libcurl runs, the
/// origin gate, and the timeout scan's clock. The driver is the engine's thread, or a caller while that thread is
/// parked (``CurlEngine/driveOnCallersThread(_:)``).
///
/// `@unchecked Sendable`: one driver at a time, handed from one to the other under the engine's lock (a caller takes
/// the role only while the thread is parked, and lets the thread go when it gives the role back); tested by
/// `CurlTransportTests.callersThatDriveAndTheEngineTakeTurnsWithoutLosingATransfer` under ThreadSanitizer.
final class CurlDriving: @unchecked Sendable {
    /// The transfers added to libcurl, by easy handle.
    var running: [UInt: CurlTransfer] = [:]
    var gate = CurlOriginGate()
    /// When the next timeout scan is due, and the nearest deadline the last one found (or a later start set).
    var nextTimeoutScan: UInt64 = 0
    var nearestDeadline = UInt64.max

    /// Whether nothing is in flight: no transfer in libcurl and none held for its origin.
    var isIdle: Bool { running.isEmpty && gate.isEmpty }
}

extension CurlEngine {
    /// How a caller's attempt to drive its own transfer ended.
    enum CallersDrive {
        /// The engine was busy (or the transfer is one the thread must run): the transfer goes to the thread.
        case declined
        /// The transfer ended on the caller's thread: its outcome is settled.
        case finished
        /// The transfer is in libcurl and the caller still drives: ``handOver()`` lets the thread take it.
        case handedOver
    }

    /// How long a caller drives before handing its transfer to the engine's thread, by default: a response on the
    /// same machine or network comes sooner; one from farther away goes to the thread after this much waiting.
    static let callersWindowNanoseconds: UInt64 = 1_000_000

    /// Runs `transfer` on the calling thread while the engine's thread is parked with nothing in flight, as a C
    /// program runs libcurl: added, sent, and waited for in `curl_multi_poll` on this thread, with no hand-over
    /// between threads when the response comes within about a millisecond. Otherwise (a command arrived, the engine
    /// stopped, the window passed) the caller keeps the role and hands the transfer over inside its continuation.
    /// Not for a streamed response (its reader's pace pauses and resumes it on the thread); a request body is read
    /// here, and one whose producer has nothing yet hands the transfer over.
    func driveOnCallersThread(_ transfer: CurlTransfer) -> CallersDrive {
        guard let multi = multi?.pointer, transfer.sink.destination != .stream else { return .declined }
        let drives = state.withLock { state -> Bool in
            guard state.parked, !state.callerDrives, state.commands.isEmpty, !state.stopped else { return false }
            guard state.drivesToSkip == 0 else {
                state.drivesToSkip -= 1
                return false
            }
            state.callerDrives = true
            return true
        }
        guard drives else { return .declined }
        let started = DispatchTime.now().uptimeNanoseconds
        admit(transfer, multi)
        while true {
            if transfer.phase == .finished {
                let unparks = state.withLock { state in
                    state.callerDrives = false
                    state.missedDrives = 0
                    return !state.commands.isEmpty || state.stopped ? state.letGo() : false
                }
                if unparks { unparking.signal() }
                return .finished
            }
            if transfer.phase == .held || transfer.pausedForApp { return .handedOver }
            // A command (another request, a cancellation), the engine stopping, or this task cancelled (its
            // cancellation handler is installed after the drive): the thread takes over.
            if state.withLock({ !$0.commands.isEmpty || $0.stopped }) || Task.isCancelled { return .handedOver }
            if DispatchTime.now().uptimeNanoseconds &- started >= callersWindow {
                state.withLock { state in
                    state.missedDrives = min(state.missedDrives + 1, 6)
                    state.drivesToSkip = (1 << state.missedDrives) - 1
                }
                return .handedOver
            }
            _ = curl_multi_poll(multi, nil, 0, 1, nil)  // woken early by a command (`wake()`)
            _ = performRound(multi)
        }
    }

    /// Gives the role a caller's drive kept back to the engine's thread, which takes over the transfer in libcurl.
    func handOver() {
        let unparks = state.withLock { state in
            state.callerDrives = false
            return state.letGo()
        }
        if unparks { unparking.signal() }
    }

    /// Adds `transfer` to libcurl now, or holds it for its origin's scout (``CurlOriginGate``).
    func admit(_ transfer: CurlTransfer, _ multi: UnsafeMutableRawPointer) {
        switch driving.gate.admit(transfer) {
        case .start(let pipeWait): start(transfer, pipeWait: pipeWait, multi)
        case .held:
            transfer.phase = .held
            transfer.lastActivity = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Adds `transfer` to libcurl as the gate decided, or ends it when libcurl refuses.
    func start(_ transfer: CurlTransfer, pipeWait: Bool, _ multi: UnsafeMutableRawPointer) {
        transfer.prepareStart(pipeWait: pipeWait)
        if curl_multi_add_handle(multi, transfer.handle.pointer) == CURLM_OK {
            transfer.phase = .running
            transfer.lastActivity = DispatchTime.now().uptimeNanoseconds
            driving.running[Self.key(transfer.handle.pointer)] = transfer
            driving.nearestDeadline = min(driving.nearestDeadline, transfer.lastActivity &+ transfer.timeoutNanoseconds)
        } else {
            finish(
                transfer, .transport(url: transfer.wire.url, code: 0, reason: "libcurl refused the transfer"), multi)
        }
    }

    /// Ends `transfer` (removed from libcurl when it was added) and starts the scout that takes its place.
    func finish(
        _ transfer: CurlTransfer, _ error: ResponseError? = nil, code: CURLcode = CURLE_OK,
        _ multi: UnsafeMutableRawPointer
    ) {
        let wasRunning = transfer.phase == .running
        if let error {
            end(transfer, error, multi: wasRunning ? multi : nil)
        } else {
            complete(transfer, transfer.finish(code))
        }
        if let next = driving.gate.ended(transfer) { start(next, pipeWait: false, multi) }
    }

    /// One round of libcurl's work: its sockets served, the held transfers whose scout connected started, the
    /// ended ones finished. `true` when it started held transfers (libcurl should run again before any wait).
    func performRound(_ multi: UnsafeMutableRawPointer) -> Bool {
        var stillRunning: Int32 = 0
        _ = curl_multi_perform(multi, &stillRunning)
        // Scouts whose connection is made let the transfers of their origin go, before any of them ends.
        let released = driving.gate.releaseConnected()
        for transfer in released where transfer.phase == .held { start(transfer, pipeWait: true, multi) }
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            var code = CURLE_OK
            guard let easy = girders_multi_done(message, &code),
                let transfer = driving.running.removeValue(forKey: Self.key(easy))
            else { continue }
            _ = curl_multi_remove_handle(multi, easy)
            finish(transfer, code: code, multi)
        }
        return !released.isEmpty
    }

    /// Ends the transfers idle past their timeout and finds the nearest deadline of the others.
    func scanTimeouts(now: UInt64, _ multi: UnsafeMutableRawPointer) {
        // Activity only moves deadlines later, so the nearest one found here is never too late. Progress since the
        // last scan counts as made now: a deadline is kept to within the scan interval, late rather than early,
        // and libcurl's callbacks read no clock.
        driving.nearestDeadline = UInt64.max
        for (key, transfer) in driving.running {
            if transfer.active || transfer.pausedForApp {
                transfer.active = false
                transfer.lastActivity = now
            }
            let deadline = transfer.lastActivity &+ transfer.timeoutNanoseconds
            if deadline <= now {
                driving.running[key] = nil
                finish(transfer, .timedOut(url: transfer.wire.url), multi)
            } else {
                driving.nearestDeadline = min(driving.nearestDeadline, deadline)
            }
        }
        // A held transfer's time runs too: it waits for a connection, as libcurl's own would.
        for transfer in driving.gate.heldTransfers {
            let deadline = transfer.lastActivity &+ transfer.timeoutNanoseconds
            if deadline <= now {
                finish(transfer, .timedOut(url: transfer.wire.url), multi)
            } else {
                driving.nearestDeadline = min(driving.nearestDeadline, deadline)
            }
        }
        driving.nextTimeoutScan = now + 2_000_000
    }
}

extension CurlEngine.State {
    /// Lets the parked thread go, unless a caller drives (it lets the thread go when it is done): `true` when the
    /// caller must signal ``CurlEngine/unparking`` once.
    mutating func letGo() -> Bool {
        guard parked, !callerDrives else { return false }
        parked = false
        return true
    }
}
#endif
