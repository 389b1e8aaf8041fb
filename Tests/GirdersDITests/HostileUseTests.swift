import Dispatch
import Foundation
import GirdersDI
import Testing

class Base: @unchecked Sendable {}  // immutable; shared by the tests' factories
final class Derived: Base, @unchecked Sendable {
    let payload = Array(repeating: 7, count: 64)
}

final class FirstSingleton: Sendable {}
final class SecondSingleton: Sendable {}

/// A link of a dependency chain, registered under a name per position.
final class Link: Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

/// Runs `body` on a new thread with `stackSize` bytes of stack (4 MiB under a sanitizer, whose frames are several
/// times larger) and waits for it, at most `timeout` seconds. Returns `false` when the thread did not finish.
func onThread(stackSize: Int = 512 << 10, timeout: Double = 30, _ body: @escaping @Sendable () -> Void) -> Bool {
    startThread(stackSize: stackSize, body).wait(timeout: .now() + timeout) == .success
}

/// Starts `body` on a new thread; the semaphore is signalled when it ends.
func startThread(stackSize: Int = 512 << 10, _ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = isSanitized ? max(stackSize, 4 << 20) : stackSize
    thread.start()
    return done
}

/// Whether AddressSanitizer or ThreadSanitizer instruments this process.
let isSanitized: Bool = {
    let program = dlopen(nil, RTLD_NOW)
    return ["__asan_init", "__tsan_init"].contains { (name: String) in dlsym(program, name) != nil }
}()

/// What careless or hostile callers do: metatype values, factories that wait for other threads, deep chains.
struct HostileUseTests {
    @Test func aFactoryRegisteredThroughASubclassMetatypeValueIsFiledUnderTheStaticType() throws {
        let container = Container()
        let value: Base = Derived()
        container.register(type(of: value)) { _ in Base() }  // the metatype value is Derived.self
        #expect(throws: ContainerError.self) { try container.resolveOrThrow(Derived.self, name: nil) }
        #expect(!container.isRegistered(Derived.self))
        let resolved = try container.resolveOrThrow(Base.self, name: nil)
        #expect(type(of: resolved) == Base.self)
        // Resolving through a metatype value asks for the static type too.
        let throughValue = try container.resolveOrThrow(type(of: value), name: nil)
        #expect(type(of: throughValue) == Base.self)
    }

    @Test func aSubclassRegistrationHandsOutOnlyItsOwnType() throws {
        let container = Container()
        container.register(Derived.self, lifetime: .singleton) { _ in Derived() }
        container.register(Base.self) { _ in Base() }
        #expect(try container.resolveOrThrow(Derived.self, name: nil).payload.count == 64)
        #expect(type(of: try container.resolveOrThrow(Base.self, name: nil)) == Base.self)
    }

    @Test func aSingletonFactoryMayWaitForAnotherThreadThatBuildsAnotherSingleton() throws {
        let container = Container()
        let outcomes = ErrorsBox()
        container.register(SecondSingleton.self, lifetime: .singleton) { _ in SecondSingleton() }
        container.register(FirstSingleton.self, lifetime: .singleton) { resolver in
            let finished = onThread(timeout: 10) { _ = try? resolver.resolveOrThrow(SecondSingleton.self, name: nil) }
            outcomes.append(finished ? "the other thread built SecondSingleton" : "the other thread hung")
            return FirstSingleton()
        }
        #expect(onThread(timeout: 20) { _ = try? container.resolveOrThrow(FirstSingleton.self, name: nil) })
        #expect(outcomes.values == ["the other thread built SecondSingleton"])
    }

    @Test func twoThreadsWaitingOnEachOthersSingletonsGetTheCycleErrorNotAHang() throws {
        let container = Container()
        let firstStarted = DispatchSemaphore(value: 0)
        let secondStarted = DispatchSemaphore(value: 0)
        let firstCalls = Counter()
        let secondCalls = Counter()
        let outcomes = ErrorsBox()
        // On their first call, each factory waits until the other one runs: both builds are then in progress.
        container.register(FirstSingleton.self, lifetime: .singleton) { resolver in
            firstCalls.increment()
            if firstCalls.value == 1 {
                firstStarted.signal()
                if secondStarted.wait(timeout: .now() + 10) == .timedOut { outcomes.append("timed out") }
            }
            _ = try resolver.resolveOrThrow(SecondSingleton.self, name: nil)
            return FirstSingleton()
        }
        container.register(SecondSingleton.self, lifetime: .singleton) { resolver in
            secondCalls.increment()
            if secondCalls.value == 1 {
                secondStarted.signal()
                if firstStarted.wait(timeout: .now() + 10) == .timedOut { outcomes.append("timed out") }
            }
            _ = try resolver.resolveOrThrow(FirstSingleton.self, name: nil)
            return SecondSingleton()
        }
        let starts: [@Sendable () throws -> Void] = [
            { _ = try container.resolveOrThrow(FirstSingleton.self, name: nil) },
            { _ = try container.resolveOrThrow(SecondSingleton.self, name: nil) },
        ]
        let threads = starts.map { start in
            startThread {
                do { try start() } catch { outcomes.append("\(error)") }
            }
        }
        #expect(threads.allSatisfy { $0.wait(timeout: .now() + 60) == .success })
        #expect(outcomes.values.count == 2)
        #expect(outcomes.values.allSatisfy { $0.hasPrefix("Dependency cycle: ") })
        #expect(outcomes.values.contains { $0.contains("FirstSingleton -> ") && $0.contains("SecondSingleton") })
    }

    @Test func aChainDeeperThanTheLimitIsAnErrorNamingItsStartAndTheLimitOnASmallStack() throws {
        let container = Container()
        let length = 20_000
        for position in 0..<length {
            container.register(Link.self, name: "\(position)") { resolver in
                position == length - 1
                    ? Link(next: nil) : Link(next: try resolver.resolveOrThrow(name: "\(position + 1)"))
            }
        }
        let errors = ErrorsBox()
        #expect(onThread { errors.append(Self.resolveError(container, name: "0")) })
        #expect(
            errors.values == [
                "Resolving GirdersDITests.Link named \"0\" needs a chain of more than 100 factories, each resolving the next"
            ])
        // A chain of exactly the limit resolves, on the same 512 KiB stack.
        let start = length - Container.maximumDepth
        #expect(onThread { errors.append(Self.resolveError(container, name: "\(start)")) })
        #expect(errors.values.last == "resolved")
    }

    @Test func everyResolveFormHandsOutTheRegisteredInstance() throws {
        let container = Container()
        container.register(SomeServiceProtocol.self, lifetime: .singleton) { _ in SomeService() }
        let shared: SomeServiceProtocol = try container.resolveOrThrow()
        let viaResolve: SomeServiceProtocol = container.resolve()
        let viaThrow: SomeServiceProtocol = try container.resolveOrThrow()
        let optional: SomeServiceProtocol? = try container.resolveOrThrow()
        // Optionals of values, of unregistered types, and of types whose factory fails.
        container.register(Int.self) { _ in 42 }
        container.register(String.self) { _ in throw Failure(description: "no port") }
        let number: Int? = try container.resolveOrThrow()
        let missing: FirstSingleton? = try container.resolveOrThrow()
        #expect(number == 42)
        #expect(missing == nil)
        #expect(throws: ContainerError.self) { let _: String? = try container.resolveOrThrow() }
        let injected = Injected<SomeServiceProtocol>(container: container)
        #expect(
            [viaResolve.id, viaThrow.id, optional?.id, injected.wrappedValue.id]
                == Array(repeating: shared.id, count: 4))
    }

    /// Each thread's resolution state lives in a pthread slot, read without retains; threads that end release it.
    /// Run under AddressSanitizer by `.ci/run`, a state used after its thread ended would be reported.
    @Test func manyShortLivedThreadsResolveAndEndWithoutHarm() throws {
        let container = Container()
        let builds = Counter()
        container.register(SomeServiceProtocol.self, lifetime: .singleton) { _ in
            builds.increment()
            return SomeService()
        }
        container.register(Link.self) { _ in Link(next: nil) }
        let identities = ErrorsBox()
        let threads = (0..<64).map { _ in
            startThread {
                for _ in 0..<200 {
                    guard let service: SomeServiceProtocol = try? container.resolveOrThrow(),
                        (try? container.resolveOrThrow(Link.self, name: nil)) != nil
                    else { return identities.append("failed") }
                    _ = service
                }
                if let service: SomeServiceProtocol = try? container.resolveOrThrow() {
                    identities.append(service.id.uuidString)
                }
            }
        }
        #expect(threads.allSatisfy { $0.wait(timeout: .now() + 60) == .success })
        #expect(builds.value == 1)
        #expect(Set(identities.values).count == 1)
        #expect(identities.values.count == 64)
    }

    private static func resolveError(_ container: Container, name: String) -> String {
        do {
            _ = try container.resolveOrThrow(Link.self, name: name)
            return "resolved"
        } catch {
            return "\(error)"
        }
    }
}

/// Strings handed from threads to the test.
///
/// `@unchecked Sendable`: `storage` is touched only under `lock`. An `NSLock`, not `Synchronization.Mutex`, whose
/// futex ThreadSanitizer does not see, so `.ci/run`'s TSan run would report a race that is not there.
final class ErrorsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ value: String) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
