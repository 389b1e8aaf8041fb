import Foundation
import GirdersDI
import Testing

final class CycleA {
    init(_ b: CycleB) {}
}

final class CycleB {
    init(_ a: CycleA) {}
}

struct ErrorTests {
    @Test func aMissingRegistrationNamesTheTypeAndListsWhatIsRegistered() {
        let container = Container()
        container.register(Int.self) { _ in 1 }
        container.register(String.self, name: "x") { _ in "x" }
        #expect {
            let _: SomeServiceProtocol = try container.resolveOrThrow()
        } throws: { error in
            "\(error)"
                == "No registration for GirdersDITests.SomeServiceProtocol (registered: Swift.Int, Swift.String named \"x\")"
        }
        #expect {
            try container.resolveOrThrow(String.self, name: "y")
        } throws: { error in
            "\(error)".hasPrefix("No registration for Swift.String named \"y\"")
        }
        #expect(
            "\(ContainerError.notRegistered(type: "T", name: nil, registered: []))"
                == "No registration for T (nothing is registered)")
    }

    @Test func aCycleThroughFactoriesIsAnErrorNamingTheChain() {
        let container = Container()
        container.register(CycleA.self) { resolver in CycleA(try resolver.resolveOrThrow()) }
        container.register(CycleB.self) { resolver in CycleB(try resolver.resolveOrThrow()) }
        #expect {
            try container.resolveOrThrow(CycleA.self, name: nil)
        } throws: { error in
            guard case .cycle(let chain)? = error as? ContainerError else { return false }
            return chain == ["GirdersDITests.CycleA", "GirdersDITests.CycleB", "GirdersDITests.CycleA"]
                && "\(error)"
                    == "Dependency cycle: GirdersDITests.CycleA -> GirdersDITests.CycleB -> GirdersDITests.CycleA"
        }
    }

    @Test func aCycleOfSingletonsIsAnErrorNotADeadlock() {
        let container = Container()
        container.register(CycleA.self, lifetime: .singleton) { resolver in CycleA(try resolver.resolveOrThrow()) }
        container.register(CycleB.self, lifetime: .singleton) { resolver in CycleB(try resolver.resolveOrThrow()) }
        #expect(throws: ContainerError.self) { try container.resolveOrThrow(CycleB.self, name: nil) }
        #expect(throws: ContainerError.self) { try container.resolveOrThrow(CycleB.self, name: nil) }
    }

    @Test func aThrowingFactoryReachesTheCallerWithTheChain() {
        let container = Container()
        container.register(Int.self) { _ in throw Failure(description: "no port") }
        container.register(String.self) { resolver in "port \(try resolver.resolveOrThrow(Int.self, name: nil))" }
        #expect {
            try container.resolveOrThrow(String.self, name: nil)
        } throws: { error in
            guard case .factoryFailed(let chain, let underlying)? = error as? ContainerError else { return false }
            return chain == ["Swift.String", "Swift.Int"] && "\(underlying)" == "no port"
                && "\(error)" == "The factory of Swift.Int failed (resolving Swift.String -> Swift.Int): no port"
        }
    }

    @Test func aFailedResolveLeavesTheContainerUsable() throws {
        let container = Container()
        let attempts = Counter()
        container.register(Int.self, lifetime: .singleton) { _ in
            attempts.increment()
            if attempts.value == 1 { throw Failure(description: "first try fails") }
            return 42
        }
        #expect(throws: ContainerError.self) { try container.resolveOrThrow(Int.self, name: nil) }
        #expect(try container.resolveOrThrow(Int.self, name: nil) == 42)
        #expect(try container.resolveOrThrow(Int.self, name: nil) == 42)
        #expect(attempts.value == 2)
    }

    @Test func aWeakRegistrationOfAValueTypeIsAnError() {
        let container = Container()
        container.register(Int.self, lifetime: .weak) { _ in 1 }
        #expect(throws: ContainerError.self) { try container.resolveOrThrow(Int.self, name: nil) }
    }
}
