import Foundation

/// A value guarded by a lock: the one shape shared mutable state takes in GirdersTrema.
///
/// `@unchecked Sendable`: `state` is read and written only inside `withLock`, under `lock`. `NSLock` rather than
/// `Synchronization.Mutex`, which needs macOS 15 / iOS 18 while the package supports macOS 13 / iOS 16. Callers
/// never run user callbacks inside `withLock`.
final class LockedState<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ initialState: State) {
        self.state = initialState
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
