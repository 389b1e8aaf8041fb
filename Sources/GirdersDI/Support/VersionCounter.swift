#if canImport(Darwin)
import os
#else
import Synchronization
#endif

/// A counter read on every resolve without taking the container's lock. `Synchronization.Atomic` needs macOS 15 /
/// iOS 18, so Apple platforms use `OSAllocatedUnfairLock`, available from macOS 13 / iOS 16.
@usableFromInline
final class VersionCounter: Sendable {
    /// Snapshot versions are unique in the process, so a thread's cached snapshot of a released container can
    /// never be mistaken for the snapshot of a new container at the same address.
    static let process = VersionCounter()

    #if canImport(Darwin)
    private let value = OSAllocatedUnfairLock(initialState: 0)
    @usableFromInline var current: Int { value.withLock { $0 } }
    func set(_ newValue: Int) { value.withLock { $0 = newValue } }
    func next() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
    #else
    private let value = Atomic(0)
    @usableFromInline var current: Int { value.load(ordering: .acquiring) }
    func set(_ newValue: Int) { value.store(newValue, ordering: .releasing) }
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
    func add(_ delta: Int) { value.wrappingAdd(delta, ordering: .releasing) }
    #endif
}
