import Foundation

/// One registration as stored in a snapshot. Immutable: building a singleton publishes a copy holding the
/// instance, and re-registering replaces the whole entry.
@usableFromInline
class Registration: @unchecked Sendable {
    @usableFromInline let key: RegistrationKey
    @usableFromInline let description: String
    @usableFromInline let lifetime: Lifetime
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
@usableFromInline
final class TypedRegistration<Service>: Registration, @unchecked Sendable {
    @usableFromInline let factory: @Sendable (Container) throws -> Service
    @usableFromInline let completed: (@Sendable (Container, Service) throws -> Void)?
    @usableFromInline let instance: Service?
    @usableFromInline let weakStorage: WeakStorage?

    init(
        key: RegistrationKey, lifetime: Lifetime, generation: Int,
        factory: @escaping @Sendable (Container) throws -> Service,
        completed: (@Sendable (Container, Service) throws -> Void)?, instance: Service? = nil
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
@usableFromInline
final class WeakStorage: @unchecked Sendable {
    private let lock = NSLock()
    private weak var object: AnyObject?

    @usableFromInline var current: AnyObject? {
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
///
/// Unnamed registrations (the common case) also sit in an open-addressing table keyed by the type's identity,
/// stored inline as raw memory, so a lookup hashes no names and touches no reference counts; the dictionary keeps
/// the registrations alive.
@usableFromInline
final class Snapshot: @unchecked Sendable {
    @usableFromInline let registrations: [RegistrationKey: Registration]
    @usableFromInline let identities: UnsafeMutablePointer<UInt>
    @usableFromInline let values: UnsafeMutablePointer<Unmanaged<Registration>>
    @usableFromInline let mask: Int

    init(registrations: [RegistrationKey: Registration]) {
        self.registrations = registrations
        var capacity = 8
        while capacity < registrations.count * 2 { capacity *= 2 }
        identities = .allocate(capacity: capacity)
        identities.initialize(repeating: 0, count: capacity)
        values = .allocate(capacity: capacity)
        mask = capacity - 1
        for (key, registration) in registrations where key.name == nil {
            var index = Self.slot(for: UInt(bitPattern: key.type), mask: mask)
            while identities[index] != 0 { index = (index + 1) & mask }
            identities[index] = UInt(bitPattern: key.type)
            (values + index).initialize(to: .passUnretained(registration))
        }
    }

    deinit {
        identities.deallocate()
        values.deallocate()
    }

    @inlinable
    static func slot(for bits: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 29) & mask
    }

    @inlinable
    func registration(for type: ObjectIdentifier, name: String?) -> Unmanaged<Registration>? {
        guard let name else { return unnamed(type) }
        return registrations[RegistrationKey(type: type, name: name)].map { .passUnretained($0) }
    }

    @inlinable
    func unnamed(_ type: ObjectIdentifier) -> Unmanaged<Registration>? {
        let bits = UInt(bitPattern: type)
        var index = Self.slot(for: bits, mask: mask)
        while true {
            let candidate = identities[index]
            if candidate == bits { return values[index] }
            if candidate == 0 { return nil }
            index = (index + 1) & mask
        }
    }
}
