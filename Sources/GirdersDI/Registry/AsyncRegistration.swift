/// A registration whose factory is `async`: resolved with ``Container/resolveAsync(_:name:)`` only; a synchronous
/// resolve that reaches it is ``ContainerError/asyncFactory(type:)``.
final class AsyncRegistration<Service: Sendable>: Registration, @unchecked Sendable {
    // `@unchecked Sendable` as `Registration`: every stored property is a `let` of a `Sendable` type.
    let factory: @Sendable (Container) async throws -> Service
    let cell: AsyncSingletonCell<Service>?

    init(
        name: String?, lifetime: Lifetime, generation: Int,
        factory: @escaping @Sendable (Container) async throws -> Service
    ) {
        self.factory = factory
        self.cell = lifetime == .singleton ? AsyncSingletonCell() : nil
        super.init(
            key: RegistrationKey(of: Service.self, name: name), lifetime: lifetime, generation: generation,
            gate: BuildGate(description: describe(Service.self, name: name)))
    }

    override var isAsync: Bool { true }

    /// The instance: the singleton's (built once), or a new one; `container` is the one holding the registration.
    func resolve(in container: Container) async throws -> Service {
        let chain = AsyncResolution.chain
        if chain.contains(where: { $0.key == key }) {
            let names = chain.map(\.description) + [description]
            throw ContainerError.cycle(chain: Array(names.drop(while: { $0 != description })))
        }
        if chain.count >= Container.maximumDepth {
            throw ContainerError.tooDeep(start: chain.first?.description ?? description, limit: Container.maximumDepth)
        }
        let step = AsyncResolution.Step(key: key, description: description)
        let build: @Sendable () async throws -> Service = { [factory] in
            try await AsyncResolution.$chain.withValue(chain + [step]) {
                do {
                    return try await factory(container)
                } catch let error as ContainerError {
                    throw error
                } catch {
                    throw ContainerError.factoryFailed(
                        chain: (chain + [step]).map(\.description), underlying: error)
                }
            }
        }
        guard let cell else { return try await build() }
        return try await cell.value(build: build)
    }
}

/// The chain of `async` registrations being built in the current task (and the build tasks it starts, which
/// inherit it): cycle and depth checks across `await`.
enum AsyncResolution {
    struct Step: Sendable {
        let key: RegistrationKey
        let description: String
    }

    @TaskLocal static var chain: [Step] = []
}
