#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-thread state of resolution: the chain being built (cycle detection, error chains), the instances of the
/// current graph, and the last container's snapshot, so a resolve needs no shared lock.
final class ThreadResolutionState {
    var chain: [Registration] = []
    var graph: [RegistrationKey: Any] = [:]
    var cachedContainer: ObjectIdentifier?
    var cachedSnapshot: Snapshot?

    init() {
        chain.reserveCapacity(16)
    }

    /// This thread's state, created on first use and released when the thread ends.
    static var current: ThreadResolutionState {
        if let pointer = pthread_getspecific(storageKey) {
            return Unmanaged<ThreadResolutionState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = ThreadResolutionState()
        pthread_setspecific(storageKey, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    private static let storageKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<ThreadResolutionState>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<ThreadResolutionState>.fromOpaque(pointer).release() }
            #endif
        }
        return key
    }()
}
