// Public imports: `current` is inlined into every resolve, so clients' code reads the slot itself.
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
/// - The pthread slot owns one retain (`Unmanaged.passRetained`), released by the key's destructor when the
///   thread ends; ``current`` hands out a strong reference.
/// - ``local`` is memory of one ``ThreadLocalState``, allocated in `init`, freed in `deinit`; a second pthread slot
///   points at it, so a resolve reads and writes it with no reference counted and no exclusivity check (only its
///   own thread ever touches it: it is reached through thread-local slots only). Its `slots` belong to the snapshot
///   ``cache`` holds: both are set together in ``cache(_:epoch:container:)``.
/// - `chain` holds registrations unretained: each is owned by the thread's cached snapshot or by `pinned`,
///   which keeps every snapshot replaced during a build until the top-level resolve ends.
@usableFromInline
final class ThreadResolutionState {
    /// The last container's snapshot and the `RegistryGeneration` word read before it was: one reference, so a
    /// resolve checks the cache with one access (each access of a class's `var` is checked for exclusivity).
    @usableFromInline var cache: SnapshotCache?
    /// The state a resolve reads and writes: the fast path's copy of ``cache``, the chain, the graph, the pinned
    /// snapshots.
    @usableFromInline let local: UnsafeMutablePointer<ThreadLocalState>

    init() {
        local = .allocate(capacity: 1)
        local.initialize(to: ThreadLocalState())
        local.pointee.chain.reserveCapacity(16)
    }

    deinit {
        local.deinitialize(count: 1)
        local.deallocate()
    }

    /// Replaces the cached snapshot (and the fast path's copy of it).
    @usableFromInline func cache(_ snapshot: Snapshot, epoch: Int, container: ObjectIdentifier) {
        cache = SnapshotCache(epoch: epoch, container: container, snapshot: snapshot)
        local.pointee.epoch = epoch
        local.pointee.container = container
        // A dry run keeps the fast path off: it would return built singletons without building them.
        local.pointee.slots = local.pointee.verification == nil ? snapshot.slots : nil
        local.pointee.mask = snapshot.mask
    }

    /// This thread's ``ThreadLocalState``, read through a pointer: no reference counted, no exclusivity check.
    @inlinable static var local: UnsafeMutablePointer<ThreadLocalState> {
        if let pointer = pthread_getspecific(localKey) {
            return pointer.assumingMemoryBound(to: ThreadLocalState.self)
        }
        return makeCurrent().takeUnretainedValue().local
    }

    /// This thread's state, created on first use and released when the thread ends.
    @inlinable static var current: ThreadResolutionState {
        if let pointer = pthread_getspecific(storageKey) {
            return Unmanaged<ThreadResolutionState>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent().takeUnretainedValue()
    }

    /// Creates this thread's state and hands its one retain to the thread-local slot.
    @usableFromInline static func makeCurrent() -> Unmanaged<ThreadResolutionState> {
        let state = Unmanaged.passRetained(ThreadResolutionState())
        pthread_setspecific(storageKey, state.toOpaque())
        pthread_setspecific(localKey, UnsafeMutableRawPointer(state.takeUnretainedValue().local))
        return state
    }

    /// The slot of the ``ThreadLocalState``; no destructor: the state's `deinit` frees it.
    @usableFromInline static let localKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

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

/// A thread's cached snapshot: immutable, replaced as a whole.
@usableFromInline
final class SnapshotCache {
    /// The `RegistryGeneration` word read before `snapshot` was; the cache is valid while the word is unchanged.
    @usableFromInline let epoch: Int
    @usableFromInline let container: ObjectIdentifier
    @usableFromInline let snapshot: Snapshot

    init(epoch: Int, container: ObjectIdentifier, snapshot: Snapshot) {
        self.epoch = epoch
        self.container = container
        self.snapshot = snapshot
    }
}

/// What a resolve reads and writes on its thread: the unnamed lookup table of the last container resolved from
/// (valid while `epoch` is the `RegistryGeneration` word), the chain being built, the current graph's instances,
/// and the snapshots pinned during a build.
@usableFromInline
struct ThreadLocalState {
    @usableFromInline var epoch = -1
    @usableFromInline var container: ObjectIdentifier?
    @usableFromInline var slots: UnsafeMutablePointer<Snapshot.Slot>?
    @usableFromInline var mask = 0
    /// Unretained: each registration is owned by a snapshot this thread holds or has pinned.
    @usableFromInline var chain: [Unmanaged<Registration>] = []
    @usableFromInline var graph: [RegistrationKey: Any] = [:]
    /// Snapshots replaced while a build was in progress, kept until the top-level resolve ends.
    @usableFromInline var pinned: [Snapshot] = []
    /// Set while ``Container/verify()`` runs on this thread: builds run, nothing is kept, mistakes are logged.
    @usableFromInline var verification: VerificationLog?

    @usableFromInline init() {}

    /// Whether the lookup table is `container`'s as of `epoch`.
    @inlinable
    func isCurrent(for container: ObjectIdentifier, epoch: Int) -> Bool {
        self.epoch == epoch && self.container == container && slots != nil
    }

    /// The registration of an unnamed `type` when the table is current for `container`; `nil` when it is not (the
    /// caller takes the slow path) or the type is not registered.
    @inlinable
    func unnamed(_ type: ObjectIdentifier, container: ObjectIdentifier, epoch: Int) -> Unmanaged<Registration>? {
        guard self.epoch == epoch, self.container == container, let slots else { return nil }
        return Snapshot.unnamed(type, slots: slots, mask: mask)
    }
}
