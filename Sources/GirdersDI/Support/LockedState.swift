import Foundation

/// A value guarded by a lock: the one shape shared mutable state takes in GirdersDI.
///
/// `@unchecked Sendable`: `state` is read and written only inside `withLock`, under `lock`. `NSLock` rather than
/// `Synchronization.Mutex`, which needs macOS 15 / iOS 18 while the package supports macOS 13 / iOS 16. Callers
/// never run factories or other user code inside `withLock`.
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

/// The mutable registrations of a container and the snapshot published from them.
///
/// The snapshot is made on the first resolve after a change, so registering n services costs O(n), not O(n²).
struct Registry {
    var registrations: [RegistrationKey: Registration] = [:]
    var generation = 0
    private var published: Snapshot?

    /// Marks the registrations changed: the next ``snapshot()`` makes a new one.
    mutating func registrationsChanged() {
        published = nil
    }

    /// The snapshot of the current registrations.
    mutating func snapshot() -> Snapshot {
        if let published { return published }
        let fresh = Snapshot(registrations: registrations)
        published = fresh
        return fresh
    }
}
