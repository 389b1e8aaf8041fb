import Foundation

// A public import: `current` is inlined into every resolve, so clients' code reads the word itself.
public import GirdersSupport

/// A process-wide generation counter (not a epoch): one word that a resolve reads once,
/// `generation << 1 | overridesActive`.
///
/// The epoch advances whenever any container publishes a snapshot or is created, so a thread's cached snapshot is
/// valid exactly while the word is unchanged (and a cache keyed by a recycled container address never matches).
/// The low bit is set while any override scope is active, so resolves look at task-local overrides only then.
///
/// The word is an `AtomicWord` (one implementation for every platform: `Synchronization.Atomic` needs macOS 15 /
/// iOS 18), read with acquire and written with release ordering. Writers are serialised by `counters`' lock.
@usableFromInline
final class RegistryGeneration: Sendable {
    @usableFromInline static let shared = RegistryGeneration()

    @usableFromInline let word = AtomicWord(0)
    /// The current word; read before the snapshot it validates.
    @inlinable var current: Int { word.load() }
    private func store(_ value: Int) { word.store(value) }

    private struct Counters {
        var epoch = 0
        var activeScopes = 0
    }

    private let counters = LockedState(Counters())

    /// Called after a container published a snapshot, or was created.
    func advance() { update { $0.epoch += 1 } }

    /// Called when an override scope starts or ends.
    func scopeStarted() { update { $0.activeScopes += 1 } }
    func scopeEnded() { update { $0.activeScopes -= 1 } }

    private func update(_ change: (inout Counters) -> Void) {
        counters.withLock { counters in
            change(&counters)
            store(counters.epoch << 1 | (counters.activeScopes > 0 ? 1 : 0))
        }
    }
}
