#if canImport(Darwin)
import os
#else
import Synchronization
#endif

/// The lowest level the `Log` facade may pass on, readable without taking the facade's lock, so a call below
/// the level costs one load and one comparison.
///
/// `Synchronization.Atomic` needs macOS 15 / iOS 18, so Apple platforms use `OSAllocatedUnfairLock` (macOS 13 /
/// iOS 16), which is just as small uncontended.
final class LevelGate: Sendable {
    #if canImport(Darwin)
    private let value: OSAllocatedUnfairLock<UInt8>
    init(_ level: LogLevel) { value = OSAllocatedUnfairLock(initialState: level.rawValue) }
    var lowest: UInt8 { value.withLock { $0 } }
    func set(_ level: LogLevel) { value.withLock { $0 = level.rawValue } }
    #else
    private let value: Atomic<UInt8>
    init(_ level: LogLevel) { value = Atomic(level.rawValue) }
    var lowest: UInt8 { value.load(ordering: .relaxed) }
    func set(_ level: LogLevel) { value.store(level.rawValue, ordering: .relaxed) }
    #endif

    /// `true` when a line at `level` may be written.
    func allows(_ level: LogLevel) -> Bool { level.rawValue >= lowest }
}
