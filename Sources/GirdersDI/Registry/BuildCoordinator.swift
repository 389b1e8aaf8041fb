import Dispatch
import GirdersSupport

/// The identity of one registration's shared-instance build; copies of the registration share it.
final class BuildGate: Sendable {
    /// The registration's description, for cycle errors.
    let description: String

    init(description: String) {
        self.description = description
    }
}

/// Serialises the building of shared instances (singletons, weak instances) one registration at a time, and
/// turns threads that wait on each other's builds into a ``ContainerError/cycle(chain:)`` instead of a hang.
///
/// A build holds only its own registration's gate while its factory runs, so a factory may wait for another
/// thread that builds something else. Before a thread waits for a gate, the coordinator follows the owners:
/// if the owner of the gate waits (directly or through others) for a gate this thread owns, waiting would never
/// end, and the thread gets the cycle error instead. Process-wide, so cycles across containers are found too.
final class BuildCoordinator: Sendable {
    static let shared = BuildCoordinator()

    private struct Owner {
        let thread: ObjectIdentifier
        var depth: Int
    }

    private struct State {
        var owners: [ObjectIdentifier: Owner] = [:]
        /// The gate each blocked thread waits for.
        var waiting: [ObjectIdentifier: BuildGate] = [:]
        /// The semaphores to signal when a gate is released.
        var sleepers: [ObjectIdentifier: [DispatchSemaphore]] = [:]
    }

    private enum Decision {
        case acquired
        case wait(DispatchSemaphore)
        case cycle([String])
    }

    private let state = LockedState(State())

    /// Takes `gate` for `thread`, waiting while another thread holds it.
    /// - Throws: ``ContainerError/cycle(chain:)`` when waiting would never end.
    func acquire(_ gate: BuildGate, thread: ObjectIdentifier) throws(ContainerError) {
        let id = ObjectIdentifier(gate)
        while true {
            let decision: Decision = state.withLock { state in
                state.waiting[thread] = nil  // woken: try again
                guard let owner = state.owners[id] else {
                    state.owners[id] = Owner(thread: thread, depth: 1)
                    return .acquired
                }
                if owner.thread == thread {
                    state.owners[id]?.depth += 1
                    return .acquired
                }
                var chain = [gate.description]
                var cursor = owner.thread
                while let awaited = state.waiting[cursor], let next = state.owners[ObjectIdentifier(awaited)] {
                    chain.append(awaited.description)
                    if next.thread == thread { return .cycle([awaited.description] + chain) }
                    if chain.count > state.waiting.count + 1 { break }  // a cycle among other threads
                    cursor = next.thread
                }
                let semaphore = DispatchSemaphore(value: 0)
                state.waiting[thread] = gate
                state.sleepers[id, default: []].append(semaphore)
                return .wait(semaphore)
            }
            switch decision {
            case .acquired: return
            case .cycle(let chain): throw ContainerError.cycle(chain: chain)
            case .wait(let semaphore): semaphore.wait()
            }
        }
    }

    /// Gives `gate` back; the last release wakes the threads waiting for it (after the lock is let go).
    func release(_ gate: BuildGate) {
        let id = ObjectIdentifier(gate)
        let sleepers: [DispatchSemaphore] = state.withLock { state in
            guard let owner = state.owners[id] else { return [] }
            guard owner.depth == 1 else {
                state.owners[id]?.depth -= 1
                return []
            }
            state.owners[id] = nil
            return state.sleepers.removeValue(forKey: id) ?? []
        }
        for sleeper in sleepers { sleeper.signal() }
    }
}
