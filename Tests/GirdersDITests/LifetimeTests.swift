import Foundation
import GirdersDI
import Testing

struct LifetimeTests {
    @Test func reRegisteringReplacesTheFactoryAndDiscardsTheOldSingleton() throws {
        let container = Container()
        container.register(String.self, lifetime: .singleton) { _ in "old" }
        #expect(try container.resolveOrThrow(String.self, name: nil) == "old")
        container.register(String.self, lifetime: .singleton) { _ in "new" }
        #expect(try container.resolveOrThrow(String.self, name: nil) == "new")
        let first: SomeService = try {
            container.register(SomeService.self, lifetime: .singleton) { _ in SomeService() }
            return try container.resolveOrThrow()
        }()
        container.register(SomeService.self, lifetime: .singleton) { _ in SomeService() }
        let second: SomeService = try container.resolveOrThrow()
        #expect(first !== second)
    }

    @Test func aWeakInstanceIsSharedWhileHeldAndRebuiltAfterRelease() throws {
        let container = Container()
        let builds = Counter()
        container.register(SomeService.self, lifetime: .weak) { _ in
            builds.increment()
            return SomeService()
        }
        var firstID: UUID?
        do {
            let held: SomeService = try container.resolveOrThrow()
            let again: SomeService = try container.resolveOrThrow()
            #expect(held === again, "shared while held")
            #expect(builds.value == 1)
            firstID = held.id
        }
        let rebuilt: SomeService = try container.resolveOrThrow()
        #expect(builds.value == 2, "built again after every holder released it")
        #expect(rebuilt.id != firstID)
    }

    @Test func aGraphInstanceIsSharedWithinOneResolveOnly() throws {
        final class Shared {}
        final class Left { let shared: Shared; init(_ shared: Shared) { self.shared = shared } }
        final class Right { let shared: Shared; init(_ shared: Shared) { self.shared = shared } }
        final class Root {
            let left: Left
            let right: Right
            init(_ left: Left, _ right: Right) { (self.left, self.right) = (left, right) }
        }
        let container = Container()
        container.register(Shared.self, lifetime: .graph) { _ in Shared() }
        container.register(Left.self) { Left(try $0.resolveOrThrow()) }
        container.register(Right.self) { Right(try $0.resolveOrThrow()) }
        container.register(Root.self) { Root(try $0.resolveOrThrow(), try $0.resolveOrThrow()) }
        let first: Root = try container.resolveOrThrow()
        let second: Root = try container.resolveOrThrow()
        #expect(first.left.shared === first.right.shared)
        #expect(first.left.shared !== second.left.shared)
    }

    @Test func propertyInjectedCyclesWorkWithGraphInstancesAndCompletedHooks() throws {
        let container = Container()
        container.register(Parent.self, lifetime: .graph, factory: { _ in Parent() }) { resolver, parent in
            parent.child = try resolver.resolveOrThrow()
        }
        container.register(Child.self, lifetime: .graph) { resolver in Child(parent: try resolver.resolveOrThrow()) }
        let parent: Parent = try container.resolveOrThrow()
        #expect(parent.child?.parent === parent)
    }
}
