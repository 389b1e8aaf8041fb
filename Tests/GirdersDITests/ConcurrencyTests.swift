import Foundation
import GirdersDI
import Testing

struct ConcurrencyTests {
    @Test func eightTasksResolvingAnUnbuiltSingletonCallItsFactoryExactlyOnce() async throws {
        let container = Container()
        let builds = Counter()
        container.register(SomeService.self, lifetime: .singleton) { _ in
            builds.increment()
            Thread.sleep(forTimeInterval: 0.01)  // widen the window in which others ask for it
            return SomeService()
        }
        let identities = try await withThrowingTaskGroup(of: Set<ObjectIdentifier>.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var seen = Set<ObjectIdentifier>()
                    for _ in 0..<100_000 {
                        let service: SomeService = try container.resolveOrThrow()
                        seen.insert(ObjectIdentifier(service))
                    }
                    return seen
                }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.formUnion($1) }
        }
        #expect(builds.value == 1)
        #expect(identities.count == 1)
    }

    @Test func registeringWhileOtherThreadsResolveNeverCrashes() async throws {
        let container = Container()
        container.register(Int.self) { _ in 0 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 1...2_000 {
                    container.register(Int.self) { _ in round }
                    container.register(String.self, name: "n\(round % 50)", lifetime: .singleton) { _ in "\(round)" }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<20_000 {
                        let value = try container.resolveOrThrow(Int.self, name: nil)
                        #expect(value >= 0 && value <= 2_000)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try container.resolveOrThrow(Int.self, name: nil) == 2_000)
    }

    @Test func registeringFromInsideAFactoryKeepsTheBuildInProgressSafe() throws {
        let container = Container()
        container.register(Int.self) { _ in 7 }
        container.register(String.self) { inner in
            // Each registration publishes a new snapshot; the nested resolve below then replaces this thread's
            // cached snapshot while the String registration is still being built from the old one.
            for round in 0..<20 {
                inner.register(Double.self, name: "round \(round)") { _ in Double(round) }
            }
            return "value \(try inner.resolveOrThrow(Int.self, name: nil))"
        }
        for _ in 0..<200 {
            #expect(try container.resolveOrThrow(String.self, name: nil) == "value 7")
            // `resolve` and the optional forms hand the registration found to the build unretained, too.
            #expect(container.resolve(String.self) == "value 7")
            let optional: String? = try container.resolveOrThrow()
            #expect(optional == "value 7")
        }
        #expect(try container.resolveOrThrow(Double.self, name: "round 19") == 19)
    }

    @Test func singletonsOfManyContainersStayApart() throws {
        for round in 0..<500 {
            let container = Container()
            container.register(Int.self, lifetime: .singleton) { _ in round }
            #expect(try container.resolveOrThrow(Int.self, name: nil) == round)
        }
    }
}

/// The thread's resolve state lives behind a pointer only its thread reaches (`ThreadLocalState`): threads that
/// come and go, resolving and verifying while another registers, each get their own and free it as they end (a
/// use after free would show under AddressSanitizer, a shared one under ThreadSanitizer; `.ci/run` runs both).
struct ThreadLocalStateTests {
    @Test func shortLivedThreadsResolvingAndVerifyingWhileAnotherRegistersEachUseTheirOwnState() async {
        let container = Container()
        container.register(SomeService.self, lifetime: .singleton) { _ in SomeService() }
        let resolved = Counter()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<200 { container.register(FirstModule.Service.self, name: "\(index)") { _ in .init() } }
            }
            for _ in 0..<40 {
                group.addTask {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        Thread {
                            for round in 0..<50 {
                                if (try? container.resolveOrThrow(SomeService.self, name: nil)) != nil {
                                    resolved.increment()
                                }
                                if round == 25 { _ = container.verify() }
                            }
                            continuation.resume()
                        }.start()
                    }
                }
            }
        }
        #expect(resolved.value == 40 * 50)
    }
}
