import Foundation

/// A value behind a lock: the one place in GirdersStorage where shared mutable state lives.
///
/// `@unchecked Sendable` is sound because `stored` is only touched while `lock` is held. `NSLock` rather than
/// `Synchronization.Mutex`, which needs macOS 15 / iOS 18 while the package supports macOS 13 / iOS 16.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Runs `body` with exclusive access, for read-modify-write changes. `body` must not call back into code
    /// that takes the same lock.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}
