import Foundation
import GirdersSupport

/// The handle of a request started with a completion handler.
public final class RequestHandle: Sendable {
    private let task: Task<Void, Never>

    /// Runs `operation` in a detached task and hands its result to `completion`, once, on `queue`.
    init<Value, Failure: Error>(
        queue: DispatchQueue, completion: @escaping @Sendable (Result<Value, Failure>) -> Void,
        operation: @escaping @Sendable () async -> sending Result<Value, Failure>
    ) {
        task = Task.detached {
            let outcome = await operation()
            // The value may not be Sendable (`[String: Any]`): hand it over through a lock box, once.
            let handover = LockedState<Result<Value, Failure>?>(outcome)
            queue.async {
                if let outcome = handover.withLock({ $0.take() }) { completion(outcome) }
            }
        }
    }

    /// ``init(queue:completion:operation:)`` for an operation with a typed error.
    convenience init<Value: Sendable>(
        queue: DispatchQueue, completion: @escaping @Sendable (Result<Value, ResponseError>) -> Void,
        operation: @escaping @Sendable () async throws(ResponseError) -> Value
    ) {
        self.init(queue: queue, completion: completion) { () async -> Result<Value, ResponseError> in
            do throws(ResponseError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Cancels the transfer; the completion receives ``ResponseError/cancelled(url:)`` unless it already ran.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }
}
