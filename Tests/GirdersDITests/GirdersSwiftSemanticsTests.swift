import Foundation
import GirdersDI
import GirdersTestLocks
import Testing

struct GirdersSwiftSemanticsTests {
    @Test func singletonsResolveToTheSameInstanceForProtocolAndClassTypes() throws {
        let container = Container()
        container.addSingleton { () -> SomeServiceProtocol in SomeService() }
        container.addSingleton { SomeService() }
        let first: SomeServiceProtocol = container.resolve()
        let second: SomeServiceProtocol = try container.resolveOrThrow()
        let concrete: SomeService = container.resolve()
        #expect(first === second)
        #expect(concrete === (container.resolve() as SomeService))
        #expect(concrete !== first, "the protocol and the class are separate registrations")
    }

    @Test func perRequestRegistrationsResolveToNewInstances() {
        let container = Container()
        container.addPerRequest { () -> SomeServiceProtocol in SomeService() }
        container.addPerRequest { SomeService() }
        let first: SomeServiceProtocol = container.resolve()
        let second: SomeServiceProtocol = container.resolve()
        #expect(first !== second)
        #expect((container.resolve() as SomeService) !== (container.resolve() as SomeService))
    }

    @Test func aLazyPropertyResolvesOnFirstUse() {
        let container = Container()
        let builds = Counter()
        container.addSingleton { () -> SomeServiceProtocol in
            builds.increment()
            return SomeService()
        }
        final class Consumer {
            let container: Container
            init(container: Container) { self.container = container }
            lazy var service: SomeServiceProtocol = container.resolve()
        }
        let consumer = Consumer(container: container)
        #expect(builds.value == 0)
        #expect(consumer.service === consumer.service)
        #expect(builds.value == 1)
    }

    @Test func typesWithTheSameNameInDifferentModulesDoNotCollide() throws {
        let container = Container()
        container.register(FirstModule.Service.self) { _ in FirstModule.Service() }
        container.register(SecondModule.Service.self) { _ in SecondModule.Service() }
        #expect(try container.resolveOrThrow(FirstModule.Service.self, name: nil).origin == "first")
        #expect(try container.resolveOrThrow(SecondModule.Service.self, name: nil).origin == "second")
    }

    @Test func namedRegistrationsAreSeparate() throws {
        let container = Container()
        container.register(String.self, name: "greeting") { _ in "hello" }
        container.register(String.self, name: "farewell") { _ in "bye" }
        container.register(String.self) { _ in "unnamed" }
        #expect(try container.resolveOrThrow(String.self, name: "greeting") == "hello")
        #expect(try container.resolveOrThrow(String.self, name: "farewell") == "bye")
        #expect(try container.resolveOrThrow(String.self, name: nil) == "unnamed")
        #expect(container.isRegistered(String.self, name: "greeting"))
        #expect(!container.isRegistered(String.self, name: "other"))
    }
}

/// The static calls act on `Container.shared`, which these tests share; they run one at a time.
@Suite(.serialized)
struct SharedContainerTests {
    @Test func theStaticCallsUseTheSharedContainer() throws {
        try TestLock.sharedContainer.withLock { try staticCallsUseTheSharedContainer() }
    }

    func staticCallsUseTheSharedContainer() throws {
        defer { Container.shared.removeAll() }
        Container.addSingleton { () -> SomeServiceProtocol in SomeService() }
        Container.addPerRequest { SomeService() }
        let s: SomeServiceProtocol = Container.resolve()
        let t: SomeServiceProtocol = try Container.resolveOrThrow()
        #expect(s === t)
        let a: SomeService = Container.resolve()
        let b: SomeService = Container.resolve()
        #expect(a !== b)
        #expect(Container.shared.isRegistered(SomeService.self))
    }

    @Test func removeAllResetsTheSharedContainer() {
        TestLock.sharedContainer.withLock { removeAllResetsIt() }
    }

    func removeAllResetsIt() {
        Container.addPerRequest { SomeService() }
        Container.shared.removeAll()
        #expect(!Container.shared.isRegistered(SomeService.self))
        #expect(throws: ContainerError.self) { let _: SomeService = try Container.resolveOrThrow() }
    }
}
