import Foundation
import GirdersSupport

/// The opening handshake of a `URLSessionWebSocketTask` (the one upgrade URLSession makes), from the session delegate's callbacks to the caller: it
/// opened, or the task completed first (with the error, and the response URLSession kept, if any).
final class SystemUpgradeOpening: Sendable {
    enum Outcome: Sendable {
        case opened
        case failed((any Error)?)
    }

    private struct State {
        var outcome: Outcome?
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    private let state = LockedState(State())

    /// The delegate's callbacks; the first one counts.
    func end(_ outcome: Outcome) {
        let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            return state.continuation.take()
        }
        continuation?.resume(returning: outcome)
    }

    /// Waits for the outcome (which may already be there).
    func wait() async -> Outcome {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { state -> Outcome? in
                if state.outcome == nil { state.continuation = continuation }
                return state.outcome
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// What a handshake's end means for the exchange: the head to hand the sink (`101` after an opening; a refusal's
    /// status, such as a `401`, which the client validates as any response's), or the failure as every transport
    /// reports it.
    enum Decision: Equatable {
        case head(status: Int)
        case failure(ResponseError)
    }

    static func decide(
        _ outcome: Outcome, status: Int?, url: URL, cancelled: Bool, timedOut: Bool
    ) -> Decision {
        if cancelled { return .failure(.cancelled(url: url)) }
        if timedOut { return .failure(.timedOut(url: url)) }
        switch outcome {
        case .opened:
            return .head(status: 101)
        case .failed(let error):
            if let status, status != 101, (100...999).contains(status) { return .head(status: status) }
            guard let error else {
                return .failure(
                    .transport(url: url, code: 0, reason: "the WebSocket task ended before its handshake's answer"))
            }
            return .failure(ResponseError(TransportFailure(urlSessionError: error), url: url))
        }
    }
}
