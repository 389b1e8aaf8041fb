import Foundation

/// One registration as stored in a snapshot. Immutable: building a singleton publishes a copy holding the
/// instance, and re-registering replaces the whole entry.
class Registration: @unchecked Sendable {
    let key: RegistrationKey
    let description: String
    let lifetime: Lifetime
    /// Identifies the act of registering, so a singleton built by a replaced factory is never published.
    let generation: Int

    init(key: RegistrationKey, description: String, lifetime: Lifetime, generation: Int) {
        self.key = key
        self.description = description
        self.lifetime = lifetime
        self.generation = generation
    }
}

/// A registration for one service type.
///
/// `@unchecked Sendable`: every stored property is immutable; `instance` (which may be a non-`Sendable` service)
/// is set before the entry is published under the container's lock, and services registered as singletons are
/// shared across threads by design.
final class TypedRegistration<Service>: Registration, @unchecked Sendable {
    let factory: @Sendable (any Resolver) throws -> Service
    let completed: (@Sendable (any Resolver, Service) throws -> Void)?
    let instance: Service?
    let weakStorage: WeakStorage?

    init(
        key: RegistrationKey, lifetime: Lifetime, generation: Int,
        factory: @escaping @Sendable (any Resolver) throws -> Service,
        completed: (@Sendable (any Resolver, Service) throws -> Void)?, instance: Service? = nil
    ) {
        self.factory = factory
        self.completed = completed
        self.instance = instance
        self.weakStorage = lifetime == .weak ? WeakStorage() : nil
        super.init(
            key: key, description: describe(Service.self, name: key.name), lifetime: lifetime, generation: generation)
    }

    /// The same registration holding a built singleton.
    func holding(_ instance: Service) -> TypedRegistration<Service> {
        TypedRegistration(
            key: key, lifetime: lifetime, generation: generation, factory: factory, completed: completed,
            instance: instance)
    }
}

/// The weakly held instance of a `.weak` registration, behind a lock.
final class WeakStorage: @unchecked Sendable {
    private let lock = NSLock()
    private weak var object: AnyObject?

    var current: AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        return object
    }

    func store(_ newObject: AnyObject) {
        lock.lock()
        object = newObject
        lock.unlock()
    }
}

/// An immutable view of a container's registrations, shared by every thread until the next change.
final class Snapshot: Sendable {
    let version: Int
    let registrations: [RegistrationKey: Registration]

    init(version: Int, registrations: [RegistrationKey: Registration]) {
        self.version = version
        self.registrations = registrations
    }
}
