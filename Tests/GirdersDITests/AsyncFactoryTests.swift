import Foundation
import Testing

@testable import GirdersDI

/// Factories that `await`.
struct AsyncFactoryTests {
    final class Settings: Sendable {
        let build: Int
        init(build: Int) { self.build = build }
    }

    /// A gate the factory waits at until the test opens it.
    final class Gate: Sendable {
        private let state = NSLock()
        nonisolated(unsafe) private var opened = false
        nonisolated(unsafe) private var waiting: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            await withCheckedContinuation { continuation in
                state.lock()
                if opened {
                    state.unlock()
                    continuation.resume()
                } else {
                    waiting.append(continuation)
                    state.unlock()
                }
            }
        }

        func open() {
            state.lock()
            opened = true
            let resumed = waiting
            waiting = []
            state.unlock()
            for continuation in resumed { continuation.resume() }
        }
    }

    /// Waits, yielding, until `condition` holds (never for a time).
    func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func aThousandTasksAskingAtOnceGetOneSingletonBuiltOnceAndACancelledWaiterLeavesAlone() async throws {
        let container = Container()
        let builds = Counter()
        let gate = Gate()
        container.registerAsync(Settings.self, lifetime: .singleton) { _ in
            builds.increment()
            await gate.wait()
            return Settings(build: builds.value)
        }
        let waiters = (0..<1_000).map { _ in
            Task { try await container.resolveAsync(Settings.self) }
        }
        await until { container.asyncWaiterCount(Settings.self) == 1_000 }
        waiters[500].cancel()
        await until { container.asyncWaiterCount(Settings.self) == 999 }
        #expect(builds.value == 1, "the build runs while they wait")
        gate.open()
        var instances: Set<ObjectIdentifier> = []
        for (index, waiter) in waiters.enumerated() {
            if index == 500 {
                await #expect(throws: CancellationError.self) { try await waiter.value }
            } else {
                instances.insert(ObjectIdentifier(try await waiter.value))
            }
        }
        #expect(instances.count == 1 && builds.value == 1)
        let later: Settings = try await container.resolveAsync()
        #expect(ObjectIdentifier(later) == instances.first)
    }

    @Test func aFailedBuildReachesEveryWaiterAndIsNotKept() async throws {
        let container = Container()
        let builds = Counter()
        let gate = Gate()
        container.registerAsync(Settings.self, lifetime: .singleton) { _ in
            builds.increment()
            if builds.value == 1 {
                await gate.wait()
                throw Failure(description: "the keychain is locked")
            }
            return Settings(build: builds.value)
        }
        let waiters = (0..<100).map { _ in Task { try await container.resolveAsync(Settings.self) } }
        await until { container.asyncWaiterCount(Settings.self) == 100 }
        gate.open()
        for waiter in waiters {
            do {
                _ = try await waiter.value
                Issue.record("a waiter got an instance from a failed build")
            } catch let error as ContainerError {
                #expect("\(error)".contains("the keychain is locked"))
            }
        }
        let second = try await container.resolveAsync(Settings.self)
        #expect(second.build == 2 && builds.value == 2)
        #expect(try await container.resolveAsync(Settings.self) === second)
    }

    @Test func aSynchronousResolveOfAnAsyncRegistrationSaysToAwaitIt() throws {
        let container = Container()
        container.registerAsync(Settings.self) { _ in Settings(build: 1) }
        do {
            _ = try container.resolveOrThrow(Settings.self, name: nil)
            Issue.record("resolved an async registration synchronously")
        } catch let error as ContainerError {
            guard case .asyncFactory(let type) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(type == String(reflecting: Settings.self))
        }
        #expect("\(ContainerError.asyncFactory(type: "S"))".contains("try await"))
    }

    @Test func perRequestAsyncFactoriesBuildEachTimeAndResolveSynchronousDependencies() async throws {
        let container = Container()
        container.register(SomeService.self, lifetime: .singleton) { _ in SomeService() }
        container.registerAsync(Settings.self) { resolver in
            _ = try resolver.resolveOrThrow(SomeService.self, name: nil)
            return Settings(build: 0)
        }
        let first = try await container.resolveAsync(Settings.self)
        let second = try await container.resolveAsync(Settings.self)
        #expect(first !== second)
        container.register(Settings.self, name: "synchronous", lifetime: .singleton) { _ in Settings(build: 7) }
        let synchronous: Settings = try await container.resolveAsync(name: "synchronous")
        #expect(synchronous === container.resolve(Settings.self, name: "synchronous"))
    }

    @Test func aCycleThroughAsyncFactoriesIsAnErrorNotAHang() async throws {
        final class A: Sendable {}
        final class B: Sendable {}
        let container = Container()
        container.registerAsync(A.self, lifetime: .singleton) { resolver in
            _ = try await resolver.resolveAsync(B.self)
            return A()
        }
        container.registerAsync(B.self, lifetime: .singleton) { resolver in
            _ = try await resolver.resolveAsync(A.self)
            return B()
        }
        await #expect(throws: ContainerError.self) { try await container.resolveAsync(A.self) }
        do {
            _ = try await container.resolveAsync(A.self)
        } catch let error as ContainerError {
            #expect("\(error)".hasPrefix("Dependency cycle:"), "\(error)")
        }
    }
}
