import Foundation
import GirdersSupport

/// One registration as stored in a snapshot. Immutable: building a singleton publishes a copy holding the
/// instance, and re-registering replaces the whole entry.
///
/// `@unchecked Sendable` (here and in ``TypedRegistration``): every stored property is a `let`; a subclass's
/// `instance` may be a non-`Sendable` service, which is set before the entry is published under the container's
/// lock, and services registered as singletons are shared across threads by design, as in every IoC container.
@usableFromInline
class Registration: @unchecked Sendable {
    @usableFromInline let key: RegistrationKey
    @usableFromInline let description: String
    @usableFromInline let lifetime: Lifetime
    /// Identifies the act of registering, so a singleton built by a replaced factory is never published.
    let generation: Int
    /// Serialises builds of this registration's shared instance; shared by the copies that hold the instance.
    let gate: BuildGate

    /// Whether the factory is `async` (resolved only with `await`).
    var isAsync: Bool { false }

    /// Builds an instance in ``Container/verify()``'s dry run (in `container`, the one holding the registration).
    func dryRun(in container: Container, thread: ThreadResolutionState) throws {}

    init(key: RegistrationKey, lifetime: Lifetime, generation: Int, gate: BuildGate) {
        self.key = key
        self.description = gate.description
        self.lifetime = lifetime
        self.generation = generation
        self.gate = gate
    }
}

/// A registration for one service type.
///
/// The only initialiser derives the key from `Service.self`, so a registration found under the key of
/// `Service` is always a `TypedRegistration<Service>`: the resolve path's checked cast (`as?`) never fails.
@usableFromInline
final class TypedRegistration<Service>: Registration, @unchecked Sendable {
    @usableFromInline let factory: @Sendable (Container) throws -> Service
    @usableFromInline let completed: (@Sendable (Container, Service) throws -> Void)?
    @usableFromInline let instance: Service?
    @usableFromInline let weakStorage: WeakStorage?

    init(
        name: String?, lifetime: Lifetime, generation: Int, factory: @escaping @Sendable (Container) throws -> Service,
        completed: (@Sendable (Container, Service) throws -> Void)?, instance: Service? = nil, gate: BuildGate? = nil
    ) {
        self.factory = factory
        self.completed = completed
        self.instance = instance
        self.weakStorage = lifetime == .weak ? WeakStorage() : nil
        super.init(
            key: RegistrationKey(of: Service.self, name: name), lifetime: lifetime, generation: generation,
            gate: gate ?? BuildGate(description: describe(Service.self, name: name)))
    }

    override func dryRun(in container: Container, thread: ThreadResolutionState) throws {
        _ = try container.build(self, thread: thread)
    }

    /// The same registration holding a built singleton.
    func holding(_ instance: Service) -> TypedRegistration<Service> {
        TypedRegistration(
            name: key.name, lifetime: lifetime, generation: generation, factory: factory, completed: completed,
            instance: instance, gate: gate)
    }
}

/// The weakly held instance of a `.weak` registration.
@usableFromInline
final class WeakStorage: Sendable {
    private struct Reference {
        weak var object: AnyObject?
    }

    private let reference = LockedState(Reference())

    @usableFromInline var current: AnyObject? { reference.withLock { $0.object } }

    func store(_ newObject: AnyObject) { reference.withLock { $0.object = newObject } }
}
