// Public: the inlinable accessors below are inlined into other modules, which call the C functions themselves.
public import CGirdersAtomics

/// One `Int` read and written atomically, without a lock, on every platform the package supports: for a word
/// read on every call of a hot path (the log level gate, the DI registry's generation), where ``LockedState``
/// would cost more than the call itself.
///
/// `Synchronization.Atomic` needs macOS 15 / iOS 18; this is one implementation for every platform instead of an
/// `Atomic` on Linux and a lock on Apple platforms, so the Linux tests run the code Apple platforms run.
///
/// `@unchecked Sendable` and unsafe: `storage` is allocated in `init`, freed in `deinit`, and only ever read and
/// written through the C atomics (`CGirdersAtomics.h`), so concurrent use is race-free. `AtomicWordTests` stores
/// and loads from many threads at once (run under ThreadSanitizer in `.ci/run`).
@usableFromInline
package final class AtomicWord: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Int>

    package init(_ value: Int) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deallocate()
    }

    /// The value, and everything its last ``store(_:)`` published before it (acquire).
    @inlinable package func load() -> Int { girders_atomic_load_acquire(storage) }

    /// The value, ordering nothing else (relaxed): for a flag read on its own.
    @inlinable package func loadRelaxed() -> Int { girders_atomic_load_relaxed(storage) }

    /// Replaces the value, publishing every write made before it (release).
    @inlinable package func store(_ value: Int) { girders_atomic_store_release(storage, value) }
}
