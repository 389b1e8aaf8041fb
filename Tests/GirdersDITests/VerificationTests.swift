import Foundation
import GirdersDI
import Testing

/// `verify()` on an app-sized graph: 1,000 registrations with one of each kind of mistake planted.
struct VerificationTests {
    final class Node: Sendable {}
    @MainActor final class Screen {}
    final class Settings: Sendable {}

    /// 1,000 named `Node`s in chains of ten (`n0 -> n1 -> ... -> n9`, `n10 -> ...`), each resolving the next.
    func app(_ plant: Bool) -> (Container, Counter) {
        let container = Container()
        let builds = Counter()
        for index in 0..<1_000 {
            let next = index % 10 == 9 ? nil : "n\(index + 1)"
            container.register(Node.self, name: "n\(index)") { resolver in
                builds.increment()
                if let next { _ = try resolver.resolveOrThrow(Node.self, name: next) }
                return Node()
            }
        }
        container.register(Node.self, name: "singleton", lifetime: .singleton) { resolver in
            builds.increment()
            return Node()
        }
        guard plant else { return (container, builds) }
        // Missing: n105 needs a node no one registered.
        container.register(Node.self, name: "n105") { resolver in
            _ = try resolver.resolveOrThrow(Node.self, name: "missing")
            return Node()
        }
        // A cycle: n202 -> n200.
        container.register(Node.self, name: "n202") { resolver in
            _ = try resolver.resolveOrThrow(Node.self, name: "n200")
            return Node()
        }
        // A singleton that holds a per-request node.
        container.register(Node.self, name: "n300", lifetime: .singleton) { resolver in
            _ = try resolver.resolveOrThrow(Node.self, name: "n301")
            return Node()
        }
        // A main-actor service asked for off the main actor.
        container.register(Node.self, name: "n400") { resolver in
            _ = try resolver.resolveOrThrow(Screen.self, name: nil)
            return Node()
        }
        // An async service resolved synchronously.
        container.registerAsync(Settings.self) { _ in Settings() }
        container.register(Node.self, name: "n500") { resolver in
            _ = try resolver.resolveOrThrow(Settings.self, name: nil)
            return Node()
        }
        // A factory that fails.
        container.register(Node.self, name: "n600") { _ in throw Failure(description: "disk full") }
        // A chain of 150 behind n700.
        for index in 0..<150 {
            container.register(Node.self, name: "deep\(index)") { resolver in
                if index < 149 { _ = try resolver.resolveOrThrow(Node.self, name: "deep\(index + 1)") }
                return Node()
            }
        }
        container.register(Node.self, name: "n700") { resolver in
            _ = try resolver.resolveOrThrow(Node.self, name: "deep0")
            return Node()
        }
        return (container, builds)
    }

    @Test @MainActor func everyPlantedMistakeIsFoundOnceInOneRun() throws {
        let (container, _) = app(true)
        container.registerOnMainActor(Screen.self) { _ in Screen() }
        let report = container.verify()
        #expect(report.checked == 1_000 + 1 + 150)
        let byKind = Dictionary(grouping: report.problems, by: \.kind)
        #expect(byKind.keys.count == 7 && report.problems.count == 7, "\(report)")
        #expect(
            byKind[.missing]?.first?.chain.suffix(2) == [
                "GirdersDITests.VerificationTests.Node named \"n105\"",
                "GirdersDITests.VerificationTests.Node named \"missing\"",
            ])
        #expect(
            byKind[.missing]?.first?.description.hasPrefix(
                "No registration for GirdersDITests.VerificationTests.Node named \"missing\" (needed by ") == true)
        #expect(Set(byKind[.cycle]?.first?.chain ?? []).count == 3, "n200 -> n201 -> n202 -> n200")
        #expect(
            byKind[.lifetime]?.first?.chain == [
                "GirdersDITests.VerificationTests.Node named \"n300\"",
                "GirdersDITests.VerificationTests.Node named \"n301\"",
            ])
        #expect(byKind[.mainActorOffMain]?.first?.description.contains("registered on the main actor") == true)
        #expect(byKind[.asyncFromSync]?.first?.chain.first == "GirdersDITests.VerificationTests.Node named \"n500\"")
        #expect(byKind[.factoryFailed]?.first?.description.contains("disk full") == true)
        #expect(byKind[.tooDeep]?.count == 1)
        #expect(throws: ContainerVerificationFailure.self) { try container.verifyOrThrow() }
    }

    @Test func aSoundGraphVerifiesCleanAndTheContainerKeepsNothingFromTheDryRun() throws {
        let (container, builds) = app(false)
        let report = container.verify()
        #expect(report.isValid, "\(report)")
        #expect(builds.value >= 1_001, "every factory ran")
        // The singleton was built in the dry run but not kept: the first real resolve builds it.
        let before = builds.value
        _ = try container.resolveOrThrow(Node.self, name: "singleton")
        #expect(builds.value == before + 1)
        try container.verifyOrThrow()
    }

    @Test func aBuiltSingletonStaysTheSameInstanceAcrossAVerify() throws {
        let container = Container()
        container.register(Node.self, lifetime: .singleton) { _ in Node() }
        let first: Node = try container.resolveOrThrow()
        #expect(container.verify().isValid)
        let second: Node = try container.resolveOrThrow()
        #expect(first === second)
    }

    @Test func aChildIsVerifiedWithItsParentsRegistrationsAndAnOverrideWithItsReplacement() throws {
        let parent = Container()
        parent.register(Node.self, name: "uses-clock") { resolver in
            _ = try resolver.resolveOrThrow(Settings.self, name: "clock")
            return Node()
        }
        let child = parent.makeChild()
        child.register(Settings.self, name: "clock") { _ in Settings() }
        // The parent's factory resolves through the parent, which has no clock: still missing from the child.
        #expect(child.verify().problems.map(\.kind) == [.missing])
        parent.withOverrides({ $0.register(Node.self, name: "uses-clock") { _ in Node() } }) {
            #expect(parent.verify().isValid, "the override replaces the broken registration")
        }
        #expect(!parent.verify().isValid)
    }

    @Test func aGraphOfAThousandRegistrationsVerifiesInAUnitTest() {
        let (container, _) = app(true)
        for _ in 0..<5 { #expect(!container.verify().isValid) }
    }
}
