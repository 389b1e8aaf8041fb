import Foundation

/// One process-wide word that a resolve reads once: `epoch << 1 | overridesActive`.
///
/// The epoch advances whenever any container publishes a snapshot or is created, so a thread's cached snapshot is
/// valid exactly while the word is unchanged (and a cache keyed by a recycled container address never matches).
/// The low bit is set while any override scope is active, so resolves look at task-local overrides only then.
@usableFromInline
final class SnapshotClock: @unchecked Sendable {
    @usableFromInline static let shared = SnapshotClock()

    private let word = VersionCounter()
    private let lock = NSLock()
    private var epoch = 0
    private var activeScopes = 0

    /// The current word; read before the snapshot it validates.
    @usableFromInline var current: Int { word.current }

    /// Called after a container published a snapshot, or was created.
    func advance() { update { $0.epoch += 1 } }

    /// Called when an override scope starts or ends.
    func scopeStarted() { update { $0.activeScopes += 1 } }
    func scopeEnded() { update { $0.activeScopes -= 1 } }

    private func update(_ change: (SnapshotClock) -> Void) {
        lock.lock()
        change(self)
        word.set(epoch << 1 | (activeScopes > 0 ? 1 : 0))
        lock.unlock()
    }
}
