#if canImport(Darwin)
import os
#else
import Synchronization
#endif

/// A counter read on every resolve without taking the container's lock. `Synchronization.Atomic` needs macOS 15 /
/// iOS 18, so Apple platforms use `OSAllocatedUnfairLock`, available from macOS 13 / iOS 16.
@usableFromInline
final class VersionCounter: Sendable {
    #if canImport(Darwin)
    private let value = OSAllocatedUnfairLock(initialState: 0)
    @usableFromInline var current: Int { value.withLock { $0 } }
    func set(_ newValue: Int) { value.withLock { $0 = newValue } }
    #else
    private let value = Atomic(0)
    @usableFromInline var current: Int { value.load(ordering: .acquiring) }
    func set(_ newValue: Int) { value.store(newValue, ordering: .releasing) }
    #endif
}
