import Foundation

/// The mutable registrations of a container behind a lock, and the snapshot published from them.
final class LockedRegistry: @unchecked Sendable {
    struct Registry {
        var registrations: [RegistrationKey: Registration] = [:]
        var generation = 0
        var snapshot = Snapshot(registrations: [:])

        /// Publishes the current registrations as a new snapshot.
        mutating func publish() {
            snapshot = Snapshot(registrations: registrations)
        }
    }

    private let lock = NSLock()
    private var registry = Registry()

    func withLock<Result>(_ body: (inout Registry) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&registry)
    }
}
