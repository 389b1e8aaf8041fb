import Foundation
import GirdersDI
import Testing

struct ContainerStructureTests {
    @Test func aChildSeesItsParentsRegistrationsAndShadowsThemWithoutTouchingIt() throws {
        let parent = Container()
        parent.register(String.self) { _ in "parent" }
        parent.register(Int.self) { _ in 1 }
        let child = parent.makeChild()
        child.register(String.self) { _ in "child" }
        #expect(try child.resolveOrThrow(String.self, name: nil) == "child")
        #expect(try child.resolveOrThrow(Int.self, name: nil) == 1)
        #expect(try parent.resolveOrThrow(String.self, name: nil) == "parent")
        #expect(child.parent === parent)
        #expect {
            try child.resolveOrThrow(Double.self, name: nil)
        } throws: { error in
            "\(error)".contains("Swift.String") && "\(error)".contains("Swift.Int (in the parent)")
        }
    }

    @Test func overridesApplyInsideTheClosureOnly() throws {
        let container = Container()
        container.register(String.self) { _ in "real" }
        let inside = try container.withOverrides({ $0.register(String.self) { _ in "fake" } }) {
            try container.resolveOrThrow(String.self, name: nil)
        }
        #expect(inside == "fake")
        #expect(try container.resolveOrThrow(String.self, name: nil) == "real")
    }

    @Test func parallelTestsEachSeeTheirOwnOverrides() async throws {
        let container = Container()
        container.register(Int.self) { _ in -1 }
        container.register(String.self) { resolver in "value \(try resolver.resolveOrThrow(Int.self, name: nil))" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await container.withOverrides({ $0.register(Int.self) { _ in index } }) {
                        for _ in 0..<200 {
                            await Task.yield()
                            let seen = try container.resolveOrThrow(Int.self, name: nil)
                            #expect(seen == index)
                        }
                        let fromChildTask = try await Task { try container.resolveOrThrow(String.self, name: nil) }
                            .value
                        #expect(fromChildTask == "value \(index)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try container.resolveOrThrow(Int.self, name: nil) == -1)
    }

    @Test func injectedResolvesLazilyOnce() {
        let container = Container()
        let builds = Counter()
        container.register(SomeService.self, lifetime: .perRequest) { _ in
            builds.increment()
            return SomeService()
        }
        final class Screen {
            @Injected var service: SomeService
            init(container: Container) { _service = Injected(container: container) }
        }
        let screen = Screen(container: container)
        #expect(builds.value == 0)
        #expect(screen.service === screen.service)
        #expect(builds.value == 1)
    }

    @MainActor
    @Test func mainActorServicesRegisterAndResolveOnTheMainActor() throws {
        @MainActor final class Router {
            var routes: [String] = []
        }
        let container = Container()
        container.registerOnMainActor(Router.self, lifetime: .singleton) { _ in Router() }
        let router: Router = try container.resolveOnMainActor()
        router.routes.append("home")
        #expect(try container.resolveOnMainActor(Router.self).routes == ["home"])
        let child = container.makeChild()
        #expect(try child.resolveOnMainActor(Router.self) === router)
        #expect(throws: ContainerError.self) { try container.resolveOnMainActor(Int.self) }
    }
}
