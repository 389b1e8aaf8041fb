// Public imports: `unmanagedCurrent` is inlined into every resolve, so clients' code reads the slot itself.
#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// Per-thread state of resolution: the chain being built (cycle detection, error chains), the instances of the
/// current graph, and the last container's snapshot, so a resolve needs no shared lock.
///
/// Unsafe constructs, each with its invariant:
/// - `@exclusivity(unchecked)`: only its own thread ever touches an instance (it lives in a thread-local slot and
///   is never handed to another thread), so the dynamic exclusivity checks Swift would make on every property
///   access (about half the cost of a resolve) cannot find a conflict and are turned off.
/// - The pthread slot owns one retain (`Unmanaged.passRetained`), released by the key's destructor when the
///   thread ends; ``unmanagedCurrent`` hands it out unretained, valid until then.
/// - `chain` holds registrations unretained: each is owned by the thread's cached snapshot or by `pinned`,
///   which keeps every snapshot replaced during a build until the top-level resolve ends.
@usableFromInline
final class ThreadResolutionState {
    /// Unretained: each registration is owned by a snapshot this thread holds or has pinned.
    @exclusivity(unchecked) @usableFromInline var chain: [Unmanaged<Registration>] = []
    @exclusivity(unchecked) @usableFromInline var graph: [RegistrationKey: Any] = [:]
    @exclusivity(unchecked) @usableFromInline var cachedContainer: ObjectIdentifier?
    /// Owns the cached snapshot; `cachedSnapshotReference` reads it without reference counting.
    @exclusivity(unchecked) @usableFromInline var cachedSnapshot: Snapshot? {
        didSet { cachedSnapshotReference = cachedSnapshot.map { .passUnretained($0) } }
    }
    @exclusivity(unchecked) @usableFromInline var cachedSnapshotReference: Unmanaged<Snapshot>?
    /// The `RegistryGeneration` word read before `cachedSnapshot` was; the cache is valid while the word is unchanged.
    @exclusivity(unchecked) @usableFromInline var cachedEpoch = -1
    /// Snapshots replaced while a build was in progress, kept until the top-level resolve ends.
    @exclusivity(unchecked) @usableFromInline var pinned: [Snapshot] = []

    init() {
        chain.reserveCapacity(16)
    }

    /// This thread's state, created on first use and released when the thread ends.
    @usableFromInline static var current: ThreadResolutionState {
        unmanagedCurrent.takeUnretainedValue()
    }

    /// This thread's state without a retain: the thread-local slot owns it until the thread ends.
    @inlinable static var unmanagedCurrent: Unmanaged<ThreadResolutionState> {
        if let pointer = pthread_getspecific(storageKey) {
            return Unmanaged<ThreadResolutionState>.fromOpaque(pointer)
        }
        return makeCurrent()
    }

    /// Creates this thread's state and hands its one retain to the thread-local slot.
    @usableFromInline static func makeCurrent() -> Unmanaged<ThreadResolutionState> {
        let state = Unmanaged.passRetained(ThreadResolutionState())
        pthread_setspecific(storageKey, state.toOpaque())
        return state
    }

    @usableFromInline static let storageKey: pthread_key_t = {
        var key = pthread_key_t()
        // Darwin hands the destructor a non-optional pointer, Glibc an optional one: both convert to the
        // optional parameter, so one destructor serves every platform.
        pthread_key_create(&key) { pointer in releaseThreadResolutionState(pointer) }
        return key
    }()
}

/// The slot's destructor: gives up the thread's state when the thread ends.
private func releaseThreadResolutionState(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { Unmanaged<ThreadResolutionState>.fromOpaque(pointer).release() }
}
