import Foundation
import GirdersSupport

/// A request's total deadline (``withDeadline(_:)``): runs the pipeline beside a timer, and when the timer fires
/// first, cancels the pipeline (the transport stops the transfer, a retry delay ends, a partial download is
/// deleted) and reports ``ResponseError/deadlineExceeded(url:seconds:)`` instead of the cancellation.
enum Deadline {
    /// The outcome of `body`, or `deadlineExceeded` once `seconds` have passed. Cancelling the calling task
    /// cancels `body` and reports its cancellation as usual.
    static func run<Value: Sendable>(
        seconds: Double, url: URL,
        _ body: @escaping @Sendable () async throws(ResponseError) -> Value
    ) async throws(ResponseError) -> Value {
        let expired = LockedState(false)
        let nanoseconds = UInt64(min(seconds, 31_536_000) * 1_000_000_000)
        let outcome = await withTaskGroup(of: Result<Value, ResponseError>?.self) { group in
            group.addTask {
                do throws(ResponseError) { return .success(try await body()) } catch { return .failure(error) }
            }
            group.addTask {
                guard (try? await Task.sleep(nanoseconds: nanoseconds)) != nil else { return nil }
                expired.withLock { $0 = true }
                return nil
            }
            var outcome: Result<Value, ResponseError> = .failure(.cancelled(url: url))
            for await result in group {
                if let result {
                    outcome = result
                    group.cancelAll()  // the timer
                } else if expired.withLock({ $0 }) {
                    group.cancelAll()  // the pipeline, which then ends with its cancellation
                }
            }
            return outcome
        }
        // Once the timer fired, whatever the cancelled pipeline ended with is the deadline's doing, a success that
        // raced with it included (a streamed response's body was cancelled with the pipeline).
        if expired.withLock({ $0 }) { throw .deadlineExceeded(url: url, seconds: seconds) }
        return try outcome.get()
    }
}
