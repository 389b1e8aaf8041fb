import Foundation
import GirdersSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `URLSessionTask` of ``URLSessionTransport``: passes the session delegate's callbacks to the
/// ``ResponseSink`` (which owns the response), keeps the timeout's watchdog informed, and resumes the waiting
/// caller exactly once with how the task ended.
final class TransferTask: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var outcome: Result<Void, ResponseError>?
        var control: TaskControl?
    }

    let wire: WireRequest
    let sink: ResponseSink
    private let state = LockedState(State())

    init(wire: WireRequest, sink: ResponseSink) {
        self.wire = wire
        self.sink = sink
    }

    /// The task's control, told of every piece of progress (for the timeout), and able to give the task up.
    func attach(_ control: TaskControl) {
        state.withLock { $0.control = control }
        let url = wire.url
        control.onGiveUp { [weak self] timedOut in self?.giveUp(timedOut ? .timedOut(url: url) : .cancelled(url: url)) }
    }

    /// Ends the wait now with `error` (the caller cancelled, or the timeout passed), without waiting for URLSession
    /// to report the task's end: FoundationNetworking reports it on its one work queue, which a hostile response can
    /// keep busy for seconds (100,000 header fields took 6-10 s there). What it reports later changes nothing.
    func giveUp(_ error: ResponseError) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = .failure(error)
            return state.continuation.take()
        }
        continuation?.resume(throwing: error)
    }

    private func touch() {
        state.withLock { $0.control }?.touch()
    }

    /// Waits for the outcome (which may already be there).
    func wait(_ continuation: CheckedContinuation<Void, any Error>) {
        let outcome = state.withLock { state in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let outcome { continuation.resume(with: outcome.mapError { $0 }) }
    }

    /// The head of the response; `false` cancels the task (the sink refused it: a limit, conflicting lengths, a
    /// download file that cannot be opened). URLSession joins repeated fields with ", ", so they count as one.
    func receive(_ response: HTTPURLResponse) -> Bool {
        touch()
        do {
            try sink.receiveHead(statusCode: response.statusCode, headers: Self.headers(of: response))
            return true
        } catch {
            return false
        }
    }

    /// A piece of the body; `false` cancels the task (the sink refused it).
    func receive(_ data: Data) -> Bool {
        touch()
        do {
            try sink.receive(data)
            return true
        } catch {
            return false
        }
    }

    /// Upload progress.
    func sent(_ bytes: Int64, of expected: Int64) {
        touch()
        sink.sent(bytes, of: expected > 0 ? expected : nil)
    }

    /// The end of the task: settles the outcome and resumes the caller.
    func complete(error: (any Error)?, info: SessionDelegate.TaskInfo) {
        let outcome = outcome(error: error, info: info)
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard state.outcome == nil else { return nil }  // given up already
            state.outcome = outcome
            return state.continuation.take()
        }
        continuation?.resume(with: outcome.mapError { $0 })
    }

    private func outcome(error: (any Error)?, info: SessionDelegate.TaskInfo) -> Result<Void, ResponseError> {
        if let reason = sink.stopReason { return .failure(reason) }
        guard let error else { return .success(()) }
        let url = wire.url
        let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
        if code == URLError.cancelled.rawValue, let challenged = info.challengeResponse {
            // FoundationNetworking hangs on a 401 with WWW-Authenticate unless the challenge is cancelled: the 401
            // is the response (its body is not available there).
            do throws(ResponseError) {
                try sink.receiveHead(statusCode: challenged.statusCode, headers: Self.headers(of: challenged))
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        let failure: TransportFailure
        if code == URLError.cancelled.rawValue, let tlsFailure = info.tlsFailure {
            failure = TransportFailure(.untrustedServer, reason: tlsFailure)
        } else if sink.hasHead, code != URLError.cancelled.rawValue, code != URLError.timedOut.rawValue {
            failure = TransportFailure(
                .interrupted, reason: error.localizedDescription, receivedBytes: sink.receivedBytes,
                expectedBytes: sink.expectedBytes)
        } else {
            failure = TransportFailure(urlSessionError: error)
        }
        return .failure(ResponseError(failure, url: url))
    }

    /// The fields of `response`, sorted by lower-cased name (computed once per field) so the order does not depend
    /// on a dictionary.
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        HTTPHeaders(
            response.allHeaderFields.map { name, value in
                (key: "\(name.base)".lowercased(), field: HTTPHeader(name: "\(name.base)", value: "\(value)"))
            }
            .sorted { $0.key < $1.key }.map(\.field))
    }
}
