public import Foundation

/// A value guarded by a lock: the one shape shared mutable state takes in every Girders module.
///
/// `@unchecked Sendable`: `state` is read and written only inside `withLock`, under `lock`. `NSLock` rather than
/// `Synchronization.Mutex`, which needs macOS 15 / iOS 18 while the package supports macOS 13 / iOS 16, so the
/// same code runs on every platform. Callers never run user callbacks (factories, handlers) inside `withLock`.
///
/// `public` and `@inlinable`, not `package`: this compiler inlines (and so specializes) a generic function into
/// another module only when it is public, and a `withLock` left generic cost every lock of a request a call through
/// its generic form. GirdersSupport is no product, so no code outside this package can import it either way.
///
/// `State` is never empty (`()`): ThreadSanitizer takes every locked access to a zero-sized stored property of a
/// generic class for a race with the reads of the object's header, so a lock guarding nothing of its own holds
/// what it guards (a descriptor) or a count of its turns. `init` checks this in debug builds.
public final class LockedState<State>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var state: State

    /// A lock guarding `initialState`, which must not be of an empty type.
    public init(_ initialState: State) {
        assert(MemoryLayout<State>.size > 0, "LockedState of an empty type: ThreadSanitizer reports it as a race")
        self.state = initialState
    }

    /// Runs `body` with exclusive access to the state. `body` must not take the same lock again.
    @inlinable public func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// The state, read or replaced under the lock.
    @inlinable public var value: State {
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
