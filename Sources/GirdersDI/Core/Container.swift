import Foundation
import GirdersSupport

/// A thread-safe IoC container. Register factories for types (optionally named), then resolve them.
///
/// ```swift
/// let container = Container()
/// container.register(Database.self, lifetime: .singleton) { _ in SQLiteDatabase() }
/// container.register(UserService.self) { resolver in UserService(database: try resolver.resolveOrThrow()) }
/// let users: UserService = try container.resolveOrThrow()
/// ```
///
/// Each thread keeps the latest immutable snapshot of the registrations and checks one process-wide generation
/// word (`RegistryGeneration`) with one atomic load, so resolving takes no lock. Each singleton is built exactly once under its own build gate, so
/// concurrent first resolves never build two and a factory may wait for another thread that builds something
/// else. Registrations are keyed by the static type `Service`, never by a metatype value. A missing registration,
/// a cycle (also between threads), a chain deeper than ``maximumDepth`` and a failing factory are errors that name
/// the types; nothing overflows the stack or hangs.
public final class Container: Resolver, Sendable {
    /// The process-wide container behind GirdersSwift's static calls (`Container.resolve()`).
    public static let shared = Container()

    /// The container whose registrations this one falls back to, if any.
    public let parent: Container?

    /// The longest chain of factories one resolve may run (a factory resolving a dependency is one step). Deeper
    /// chains end with ``ContainerError/tooDeep(start:limit:)``: native recursion this deep fits a 512 KiB thread
    /// stack, the default for secondary threads on Apple platforms, even in debug builds.
    public static let maximumDepth = 100

    let state: LockedState<Registry>
    let mainActorRegistry = MainActorRegistry()

    /// Creates an empty container, or a child of `parent` that sees the parent's registrations and can shadow
    /// them without touching the parent.
    public init(parent: Container? = nil) {
        self.parent = parent
        self.state = LockedState(Registry())
        RegistryGeneration.shared.advance()
    }

    /// A new child container of this one.
    public func makeChild() -> Container {
        Container(parent: self)
    }

    // MARK: Registering

    /// Registers (or replaces) the factory for `Service` and `name`. Replacing discards a singleton built by the
    /// old factory.
    ///
    /// The registration is filed under the static type `Service`, never under the metatype value passed as `type`:
    /// `register(type(of: base)) { _ in Base() }` registers `Base` even when `base` is a `Derived`, so no resolve of
    /// `Derived` can ever receive a `Base`.
    /// - Parameters:
    ///   - type: The service type; usually inferred from the factory.
    ///   - name: Tells registrations of the same type apart; `nil` by default.
    ///   - lifetime: How long instances live; per request by default.
    ///   - factory: Builds the service; resolves its dependencies through the container it is given (the one
    ///     holding the registration; concrete, so nested resolves are as fast as top-level ones); may throw.
    ///   - completed: Runs after the instance is built (and, for `.graph`, visible to the graph): the place for
    ///     property injection, including cycles.
    public func register<Service>(
        _ type: Service.Type = Service.self, name: String? = nil, lifetime: Lifetime = .perRequest,
        factory: @escaping @Sendable (Container) throws -> Service,
        completed: (@Sendable (Container, Service) throws -> Void)? = nil
    ) {
        state.withLock { registry in
            registry.generation += 1
            let registration = TypedRegistration(
                name: name, lifetime: lifetime, generation: registry.generation, factory: factory, completed: completed)
            registry.registrations[registration.key] = registration
            registry.registrationsChanged()
        }
        RegistryGeneration.shared.advance()
    }

    /// Removes every registration and built instance of this container (not of its parent).
    public func removeAll() {
        state.withLock { registry in
            registry.registrations.removeAll()
            registry.registrationsChanged()
        }
        RegistryGeneration.shared.advance()
    }

    /// `true` when `type` and `name` can be resolved here or in a parent.
    public func isRegistered<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        registration(for: ObjectIdentifier(Service.self), name: name, thread: ThreadResolutionState.current) != nil
            || parent?.isRegistered(type, name: name) == true
    }

    // MARK: Resolving

    /// Resolves `Service` (the static type; `type` only infers it) and `name`.
    /// - Throws: ``ContainerError/notRegistered(type:name:registered:)`` listing what is registered,
    ///   ``ContainerError/cycle(chain:)``, ``ContainerError/tooDeep(start:limit:)``, or
    ///   ``ContainerError/factoryFailed(chain:underlying:)``.
    @inlinable @inline(__always)
    public func resolveOrThrow<Service>(_ type: Service.Type, name: String?) throws -> Service {
        let epoch = RegistryGeneration.shared.current
        if epoch & 1 != 0, let replacement = OverrideScope.replacement(for: self) {
            return try replacement.resolveWithoutOverrides(type, name: name)
        }
        return try resolveWithoutOverrides(type, name: name, epoch: epoch)
    }

    /// Resolves `type` (inferred) and `name`, stopping the program with the same message
    /// `resolveOrThrow(_:name:)` would throw, as GirdersSwift's `resolve()` did. As fast as `resolveOrThrow`.
    @inlinable @inline(__always)
    public func resolve<Service>(_ type: Service.Type = Service.self, name: String? = nil) -> Service {
        // A built singleton needs no error handling; the rest goes through `resolveOrStop` (a function that
        // catches is not inlined, and the fast path would pay for the call).
        let epoch = RegistryGeneration.shared.current
        if epoch & 1 == 0 {
            if name == nil, let found = fastRegistration(Service.self, epoch: epoch) {
                if let built = found.instance { return built }
                return buildOrStop(found, thread: ThreadResolutionState.current)
            }
            let thread = ThreadResolutionState.current
            if let found = typedRegistration(Service.self, name: name, thread: thread, epoch: epoch) {
                if let built = found.instance { return built }
                return buildOrStop(found, thread: thread)
            }
        }
        return resolveOrStop(type, name: name)
    }

    /// The registration of an unnamed `Service` from this thread's fast cache, or `nil`: the cache is for another
    /// container or older than `epoch` (the caller takes the slow path, which refreshes it), or nothing is
    /// registered here. `epoch` must have been read before this call.
    @inlinable @inline(__always)
    func fastRegistration<Service>(_ type: Service.Type, epoch: Int) -> TypedRegistration<Service>? {
        ThreadResolutionState.local.pointee.unnamed(
            ObjectIdentifier(Service.self), container: ObjectIdentifier(self), epoch: epoch
        )?.takeUnretainedValue() as? TypedRegistration<Service>
    }

    /// Builds the instance of a registration `resolve` found, stopping the program on an error.
    @inlinable
    func buildOrStop<Service>(_ found: TypedRegistration<Service>, thread: ThreadResolutionState) -> Service {
        do {
            return try resolve(found, in: thread)
        } catch {
            Self.stop(error)
        }
    }

    /// `resolveOrThrow(_:name:)`, stopping the program on an error.
    @inlinable
    func resolveOrStop<Service>(_ type: Service.Type, name: String?) -> Service {
        do {
            return try resolveOrThrow(type, name: name)
        } catch {
            Self.stop(error)
        }
    }

    /// The built singleton this container registers for `Service` and `name`, or `nil` (not registered here, not
    /// built, not a singleton, or `shadow` is registered here under `name`). Never builds, never throws.
    @inlinable @inline(__always)
    func builtInstance<Service>(
        _ type: Service.Type, name: String?, epoch: Int, unlessRegistered shadow: Any.Type? = nil
    ) -> Service? {
        if name == nil {
            let local = ThreadResolutionState.local  // read through the pointer: no copy of the chain and graph
            if local.pointee.isCurrent(for: ObjectIdentifier(self), epoch: epoch) {
                if let shadow,
                    local.pointee.unnamed(ObjectIdentifier(shadow), container: ObjectIdentifier(self), epoch: epoch)
                        != nil
                {
                    return nil
                }
                return fastRegistration(Service.self, epoch: epoch)?.instance
            }
        }
        let thread = ThreadResolutionState.current
        if let shadow, registration(for: ObjectIdentifier(shadow), name: name, thread: thread, epoch: epoch) != nil {
            return nil
        }
        return typedRegistration(Service.self, name: name, thread: thread, epoch: epoch)?.instance
    }

    /// GirdersSwift's contract for `resolve()`: a service that cannot be resolved is a programming error.
    /// Only code reaches this: the types and names resolved are the app's own. A name that comes from input
    /// belongs in `resolveOrThrow(_:name:)`, which throws instead (the README says so).
    @usableFromInline
    static func stop(_ error: any Error) -> Never {
        fatalError("\(error)")
    }

    @inlinable
    func resolveWithoutOverrides<Service>(
        _ type: Service.Type, name: String?, epoch: Int = RegistryGeneration.shared.current
    ) throws -> Service {
        if let service = try resolveIfRegistered(type, name: name, epoch: epoch) { return service }
        return try resolveMissing(type, name: name)
    }

    /// The service when this container itself registers `Service` and `name`; `nil` when it does not (parents and
    /// `Optional` are ``resolveMissing(_:name:)``'s business).
    @inlinable
    func resolveIfRegistered<Service>(_ type: Service.Type, name: String?, epoch: Int) throws -> Service? {
        if name == nil, ThreadResolutionState.local.pointee.isCurrent(for: ObjectIdentifier(self), epoch: epoch) {
            guard let found = fastRegistration(Service.self, epoch: epoch) else { return nil }
            if let built = found.instance { return built }
            return try resolve(found, in: ThreadResolutionState.current)
        }
        let thread = ThreadResolutionState.current
        guard let found = typedRegistration(Service.self, name: name, thread: thread, epoch: epoch) else { return nil }
        return try resolve(found, in: thread)
    }

    /// `Optional<Wrapped>` without the dynamic cast of ``resolveMissing(_:name:)``, with the same meaning: an
    /// explicit `Optional<Wrapped>` registration first, then `Wrapped` if registered, else `nil`. Containers with a
    /// parent take the general path, which asks the parents before unwrapping.
    @inlinable
    func resolveOptional<Wrapped>(_ type: Wrapped.Type, name: String?) throws -> Wrapped? {
        let epoch = RegistryGeneration.shared.current
        if epoch & 1 != 0, let replacement = OverrideScope.replacement(for: self) {
            return try replacement.resolveWithoutOverrides(Wrapped?.self, name: name)
        }
        guard parent == nil else { return try resolveWithoutOverrides(Wrapped?.self, name: name, epoch: epoch) }
        if let explicit = try resolveIfRegistered(Wrapped?.self, name: name, epoch: epoch) { return explicit }
        return try resolveIfRegistered(Wrapped.self, name: name, epoch: epoch)
    }

    /// The registration of `Service` and `name` in this thread's snapshot. Registrations are filed under the key of
    /// their own `Service` (see ``TypedRegistration``), so the checked cast cannot fail; if it did, the service
    /// would count as not registered, never as another type. `epoch` must have been read before this call.
    @inlinable @inline(__always)
    func typedRegistration<Service>(
        _ type: Service.Type, name: String?, thread: ThreadResolutionState, epoch: Int
    ) -> TypedRegistration<Service>? {
        registration(for: ObjectIdentifier(Service.self), name: name, thread: thread, epoch: epoch)
            as? TypedRegistration<Service>
    }

    /// The registration in this thread's snapshot, which owns it until the thread next refreshes its cache (only a
    /// resolve on the same thread can). `epoch` must have been read before this call.
    @inlinable
    func registration(
        for type: ObjectIdentifier, name: String?, thread: ThreadResolutionState,
        epoch: Int = RegistryGeneration.shared.current
    ) -> Registration? {
        if let cache = thread.cache, cache.epoch == epoch, cache.container == ObjectIdentifier(self) {
            return cache.snapshot.registration(for: type, name: name)
        }
        return snapshot(for: thread, epoch: epoch).registration(for: type, name: name)
    }

    /// Not registered here: ask the parents, then treat `Optional<Wrapped>` as "`Wrapped` if registered".
    @usableFromInline
    func resolveMissing<Service>(_ type: Service.Type, name: String?) throws -> Service {
        var ancestor = parent
        while let container = ancestor {
            let thread = ThreadResolutionState.current
            let epoch = RegistryGeneration.shared.current
            if let found = container.typedRegistration(Service.self, name: name, thread: thread, epoch: epoch) {
                return try container.resolve(found, in: thread)
            }
            ancestor = container.parent
        }
        if let optional = Service.self as? any OptionalService.Type,
            let resolved = try optional.resolveWrapped(in: self, name: name) as? Service
        {
            return resolved
        }
        if let asynchronous = asyncRegistration(Service.self, name: name) {
            let local = ThreadResolutionState.current.local
            if local.pointee.verification != nil, let requester = local.pointee.chain.last?.takeUnretainedValue() {
                local.pointee.verification?.pendingAsync[asynchronous] = requester.description
            }
            throw ContainerError.asyncFactory(type: asynchronous)
        }
        let local = ThreadResolutionState.current.local
        if local.pointee.verification != nil {
            let key = RegistrationKey(of: Service.self, name: name)
            let missing = describe(Service.self, name: name)
            let chain = local.pointee.chain.map { $0.takeUnretainedValue().description } + [missing]
            local.pointee.verification?.pendingMissing[missing] = (
                mainActorRegistry.registeredKeys.withLock { $0.contains(key) } ? .mainActorOffMain : .missing, chain
            )
        }
        throw ContainerError.notRegistered(
            type: String(reflecting: Service.self), name: name, registered: registeredDescriptions())
    }

    @inlinable
    func resolve<Service>(
        _ registration: TypedRegistration<Service>, in thread: ThreadResolutionState
    ) throws
        -> Service
    {
        let key = registration.key
        switch registration.lifetime {
        case .singleton:
            if let instance = registration.instance, thread.local.pointee.verification == nil { return instance }
            return try buildShared(registration, thread: thread)
        case .perRequest:
            return try build(registration, thread: thread)
        case .weak:
            if let object = registration.weakStorage?.current, let instance = object as? Service { return instance }
            return try buildShared(registration, thread: thread)
        case .graph:
            if let instance = thread.local.pointee.graph[key] as? Service { return instance }
            return try build(registration, thread: thread)
        }
    }

    /// This thread's snapshot of the registrations, refreshed under the lock only after a change.
    @usableFromInline
    func snapshot(for thread: ThreadResolutionState, epoch: Int) -> Snapshot {
        let identity = ObjectIdentifier(self)
        if let cache = thread.cache, cache.epoch == epoch, cache.container == identity { return cache.snapshot }
        let fresh = state.withLock { $0.snapshot() }  // read after `epoch`, so it is at least as new
        if !thread.local.pointee.chain.isEmpty, let replaced = thread.cache?.snapshot {
            thread.local.pointee.pinned.append(replaced)  // registrations of builds in progress may live in it
        }
        thread.cache(fresh, epoch: epoch, container: identity)
        return fresh
    }

    func registeredDescriptions() -> [String] {
        var descriptions = state.withLock { $0.registrations.values.map(\.description) }.sorted()
        if let parent { descriptions += parent.registeredDescriptions().map { "\($0) (in the parent)" } }
        return descriptions
    }
}
