import Foundation

/// A value guarded by a lock: the one shape shared mutable state takes in every Girders module.
///
/// `@unchecked Sendable`: `state` is read and written only inside `withLock`, under `lock`. `NSLock` rather than
/// `Synchronization.Mutex`, which needs macOS 15 / iOS 18 while the package supports macOS 13 / iOS 16, so the
/// same code runs on every platform. Callers never run user callbacks (factories, handlers) inside `withLock`.
package final class LockedState<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ initialState: State) {
        self.state = initialState
    }

    /// Runs `body` with exclusive access to the state. `body` must not take the same lock again.
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// The state, read or replaced under the lock.
    package var value: State {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }
}

extension Optional {
    /// The value, leaving `nil` behind.
    package mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
