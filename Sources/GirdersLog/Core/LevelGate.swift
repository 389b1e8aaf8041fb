import GirdersSupport

/// The lowest level the `Log` facade may pass on, readable without taking the facade's lock, so a call below
/// the level costs one load and one comparison.
///
/// An ``AtomicWord`` (one implementation for every platform: `Synchronization.Atomic` needs macOS 15 / iOS 18),
/// read and written relaxed: the gate orders nothing but itself.
final class LevelGate: Sendable {
    private let value: AtomicWord

    init(_ level: LogLevel) { value = AtomicWord(Int(level.rawValue)) }

    var lowest: Int { value.loadRelaxed() }

    func set(_ level: LogLevel) { value.store(Int(level.rawValue)) }

    /// `true` when a line at `level` may be written.
    func allows(_ level: LogLevel) -> Bool { Int(level.rawValue) >= lowest }
}
