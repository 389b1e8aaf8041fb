import GirdersSupport

/// The shared instance of an `async` singleton: built by one task however many ask at once, the others waiting
/// for it; a waiter that is cancelled stops waiting at once, without cancelling the build the others wait for;
/// a failed build is not kept, so the next resolve builds again.
final class AsyncSingletonCell<Service: Sendable>: Sendable {
    private struct Waiter: Sendable {
        let id: UInt64
        let continuation: CheckedContinuation<Service, any Error>
    }

    private struct State: Sendable {
        var built: Service?
        var building = false
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = LockedState(State())

    /// How many resolves wait for the build now (for the tests).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// The instance, built by `build` in a task of its own if no build runs yet.
    func value(build: @escaping @Sendable () async throws -> Service) async throws -> Service {
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        if let built = state.withLock({ $0.built }) { return built }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let starts: Bool = state.withLock { state in
                    if let built = state.built {
                        continuation.resume(returning: built)
                        return false
                    }
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return false
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    if state.building { return false }
                    state.building = true
                    return true
                }
                guard starts else { return }
                // Unstructured: cancelling the task that asked first does not cancel the build the others wait for.
                Task {
                    let result: Result<Service, any Error>
                    do {
                        result = .success(try await build())
                    } catch {
                        result = .failure(error)
                    }
                    self.finish(result)
                }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Keeps a built instance (not a failure) and resumes every waiter.
    private func finish(_ result: Result<Service, any Error>) {
        let waiters: [Waiter] = state.withLock { state in
            state.building = false
            if case .success(let instance) = result { state.built = instance }
            let waiting = state.waiters
            state.waiters = []
            return waiting
        }
        for waiter in waiters { waiter.continuation.resume(with: result) }
    }
}
