import Foundation
import GirdersSupport

/// A request's total deadline (``withDeadline(_:)``), the one owner of it from the first attempt to the last byte
/// of a streamed body: it runs the pipeline beside a timer, and when the timer fires first, cancels the pipeline
/// (the transport stops the transfer, a retry delay ends, a partial download is deleted) and reports
/// ``ResponseError/deadlineExceeded(url:seconds:)`` instead of the cancellation; a streamed body read after the
/// pipeline returned is ended the same way (``watch(_:)``).
final class Deadline: Sendable {
    let seconds: Double
    let url: URL

    private struct State {
        var expired = false
        var ended = false
        var onExpiry: (@Sendable () -> Void)?
        var timer: Task<Void, Never>?
    }

    private let state = LockedState(State())

    /// A deadline `seconds` from now (clamped to ``RequestTime/longest``).
    init(seconds: Double, url: URL) {
        self.seconds = seconds
        self.url = url
        let nanoseconds = RequestTime.nanoseconds(seconds)
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(nanoseconds: nanoseconds)) != nil else { return }
            self?.expire()
        }
        state.withLock { $0.timer = timer }
    }

    deinit {
        state.withLock { $0.timer }?.cancel()
    }

    /// Whether the deadline passed.
    var hasExpired: Bool { state.withLock { $0.expired } }

    /// The error a call that ran out of time ends with.
    var error: ResponseError { .deadlineExceeded(url: url, seconds: seconds) }

    private func expire() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.ended else { return nil }
            state.expired = true
            return state.onExpiry
        }
        action?()
    }

    /// What the deadline does when it passes from now on: cancel a pipeline, end a stream. Runs at once when it
    /// passed already.
    func watch(_ onExpiry: (@Sendable () -> Void)?) {
        let now = state.withLock { state -> (@Sendable () -> Void)? in
            state.onExpiry = onExpiry
            return state.expired && !state.ended ? onExpiry : nil
        }
        now?()
    }

    /// The call is over (its response read, or it failed): the timer stops and nothing more is ended.
    func end() {
        let timer = state.withLock { state -> Task<Void, Never>? in
            state.ended = true
            state.onExpiry = nil
            return state.timer.take()
        }
        timer?.cancel()
    }

    /// The outcome of `body`, or ``error`` once the deadline passed (whatever the cancelled `body` ended with, a
    /// success that raced with the timer included). Cancelling the calling task cancels `body` and reports its
    /// cancellation as usual.
    func run<Value: Sendable>(
        _ body: @escaping @Sendable () async throws(ResponseError) -> Value
    ) async throws(ResponseError) -> Value {
        let task = Task { () -> Result<Value, ResponseError> in
            do throws(ResponseError) { return .success(try await body()) } catch { return .failure(error) }
        }
        watch { task.cancel() }
        let outcome = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        watch(nil)
        if hasExpired { throw error }
        return try outcome.get()
    }
}
