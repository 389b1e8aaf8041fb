import Foundation
import GirdersDI
import GirdersTestLocks
import Testing

// GirdersSwift's dependency-injection call shapes: protocol services, singletons and per-request factories
// registered on `Container`, resolved by the type the call site asks for, and lazy properties.

protocol GreetingServiceProtocol {
    func greeting() -> String
}

class GreetingService: GreetingServiceProtocol {
    let id = UUID().uuidString
    func greeting() -> String {
        return "hello \(id)"
    }
}

protocol StampServiceProtocol {
    func stamp() -> String
}

class StampService: StampServiceProtocol {
    let id = UUID().uuidString
    func stamp() -> String {
        return id
    }
}

class UsesServices {
    lazy var greetingService: GreetingServiceProtocol = Container.resolve()
    lazy var stampService: StampServiceProtocol = Container.resolve()
}

@Suite(.serialized)
struct ContainerCallShapeTests {
    @Test func singletonsAndPerRequestFactoriesResolveAsInGirdersSwift() {
        TestLock.sharedContainer.withLock {
            Container.addSingleton { () -> GreetingServiceProtocol in
                return GreetingService()
            }
            Container.addPerRequest { () -> StampServiceProtocol in
                return StampService()
            }
            let first: GreetingServiceProtocol = Container.resolve()
            let second: GreetingServiceProtocol = Container.resolve()
            #expect(first.greeting() == second.greeting())
            let user = UsesServices()
            #expect(user.greetingService.greeting() == first.greeting())
            #expect(user.stampService.stamp() != UsesServices().stampService.stamp())
        }
    }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated Container.cleanup()")
    @Test func cleanupRemovesEveryRegistrationAndSingletonAsInGirdersSwift() throws {
        try TestLock.sharedContainer.withLock {
            Container.addSingleton { () -> GreetingServiceProtocol in
                return GreetingService()
            }
            let before: GreetingServiceProtocol = Container.resolve()
            Container.cleanup()
            #expect(throws: ContainerError.self) { let _: GreetingServiceProtocol = try Container.resolveOrThrow() }
            Container.addSingleton { () -> GreetingServiceProtocol in
                return GreetingService()
            }
            let after: GreetingServiceProtocol = try Container.resolveOrThrow()
            #expect(after.greeting() != before.greeting(), "the old singleton is gone")
            Container.cleanup()
        }
    }
}
