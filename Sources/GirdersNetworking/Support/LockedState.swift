import Foundation

/// A value guarded by a lock: the one shape shared mutable state takes in GirdersNetworking.
///
/// `NSLock` is used on every platform because `Synchronization.Mutex` needs macOS 15 / iOS 18 and the package
/// supports macOS 13 / iOS 16. Callers never run user callbacks inside `withLock`.
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

extension Optional {
    /// The value, leaving `nil` behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
