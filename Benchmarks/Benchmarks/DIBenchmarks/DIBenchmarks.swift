// GirdersDI side by side with Swinject 2.10.0, in one run.
import Benchmark
import Foundation
import GirdersDI
import Swinject

protocol LeafProtocol: AnyObject {}
final class Leaf: LeafProtocol {}
final class D {}
final class C {}
final class B {
    let d: D
    init(d: D) { self.d = d }
}
final class A {
    let b: B
    let c: C
    init(b: B, c: C) { (self.b, self.c) = (b, c) }
}

/// Ten or a thousand unrelated registrations, to show lookups do not slow down with size.
enum Filler {
    final class Service<Tag> {}
    enum Tag0 {}
}

func girdersContainer(extraRegistrations: Int = 0) -> GirdersDI.Container {
    let container = GirdersDI.Container()
    container.register(LeafProtocol.self, lifetime: .singleton) { _ in Leaf() }
    container.register(Leaf.self) { _ in Leaf() }
    container.register(D.self) { _ in D() }
    container.register(C.self) { _ in C() }
    container.register(B.self) { B(d: try $0.resolveOrThrow()) }
    container.register(A.self) { A(b: try $0.resolveOrThrow(), c: try $0.resolveOrThrow()) }
    for index in 0..<extraRegistrations {
        container.register(Leaf.self, name: "filler \(index)") { _ in Leaf() }
    }
    return container
}

func swinjectContainer() -> Swinject.Container {
    let container = Swinject.Container()
    container.register(LeafProtocol.self) { _ in Leaf() }.inObjectScope(.container)
    container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
    container.register(D.self) { _ in D() }.inObjectScope(.transient)
    container.register(C.self) { _ in C() }.inObjectScope(.transient)
    container.register(B.self) { B(d: $0.resolve(D.self) ?? D()) }.inObjectScope(.transient)
    container.register(A.self) { A(b: $0.resolve(B.self) ?? B(d: D()), c: $0.resolve(C.self) ?? C()) }.inObjectScope(
        .transient)
    return container
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 3, scalingFactor: .kilo,
        maxDuration: .seconds(2), maxIterations: 10_000)

    let girders = girdersContainer()
    let girdersLarge = girdersContainer(extraRegistrations: 990)
    nonisolated(unsafe) let swinject = swinjectContainer()
    _ = try? girders.resolveOrThrow(LeafProtocol.self, name: nil)
    _ = swinject.resolve(LeafProtocol.self)

    Benchmark("Singleton, built: GirdersDI") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try girders.resolveOrThrow(LeafProtocol.self, name: nil)) }
    }
    // GirdersSwift's call sites, on the shared container: `let s: SomeServiceProtocol = Container.resolve()`.
    GirdersDI.Container.shared.register(LeafProtocol.self, lifetime: .singleton) { _ in Leaf() }
    GirdersDI.Container.shared.register(Leaf.self) { _ in Leaf() }
    Benchmark("Singleton, built: GirdersDI legacy call site Container.resolve()") { benchmark in
        for _ in benchmark.scaledIterations {
            let service: LeafProtocol = GirdersDI.Container.resolve()
            blackHole(service)
        }
    }
    Benchmark("Singleton, built: GirdersDI legacy call site Optional Container.resolve()") { benchmark in
        for _ in benchmark.scaledIterations {
            let service: LeafProtocol? = GirdersDI.Container.resolve()
            blackHole(service)
        }
    }
    Benchmark("Per-request leaf: GirdersDI legacy call site Container.resolve()") { benchmark in
        for _ in benchmark.scaledIterations {
            let service: Leaf = GirdersDI.Container.resolve()
            blackHole(service)
        }
    }
    Benchmark("Singleton, built: GirdersDI container.resolve(T.self)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(girders.resolve(LeafProtocol.self)) }
    }
    Benchmark("Singleton, built: GirdersDI Optional<T>") { benchmark in
        for _ in benchmark.scaledIterations {
            let service: LeafProtocol? = try girders.resolveOrThrow()
            blackHole(service)
        }
    }
    final class AsyncLeaf: Sendable {}
    girders.registerAsync(AsyncLeaf.self, lifetime: .singleton) { _ in AsyncLeaf() }
    Benchmark("Singleton, built: GirdersDI async factory, resolveAsync") { benchmark in
        _ = try await girders.resolveAsync(AsyncLeaf.self)
        for _ in benchmark.scaledIterations { blackHole(try await girders.resolveAsync(AsyncLeaf.self)) }
    }
    Benchmark("Singleton, built: Swinject container scope") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(LeafProtocol.self)) }
    }
    Benchmark("Per-request leaf: GirdersDI") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try girders.resolveOrThrow(Leaf.self, name: nil)) }
    }
    Benchmark("Per-request leaf: Swinject transient") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(Leaf.self)) }
    }
    Benchmark("Per-request leaf, 1,000 registrations: GirdersDI") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try girdersLarge.resolveOrThrow(Leaf.self, name: nil)) }
    }
    Benchmark("3-level graph (A needs B and C, B needs D): GirdersDI") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try girders.resolveOrThrow(A.self, name: nil)) }
    }
    Benchmark("3-level graph (A needs B and C, B needs D): Swinject") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(A.self)) }
    }

    // 80,000 resolves per iteration: on one thread, and spread over 8 threads (this machine has 2 cores).
    // Swinject is thread-safe only through `synchronize()`, which serialises every resolve on one lock.
    nonisolated(unsafe) let synchronized = swinject.synchronize()
    let workloads: [(String, @Sendable () -> Void)] = [
        ("singleton", { blackHole(try? girders.resolveOrThrow(LeafProtocol.self, name: nil)) }),
        ("per-request leaf", { blackHole(try? girders.resolveOrThrow(Leaf.self, name: nil)) }),
        ("Swinject synchronized, singleton", { blackHole(synchronized.resolve(LeafProtocol.self)) }),
        ("Swinject synchronized, transient leaf", { blackHole(synchronized.resolve(Leaf.self)) }),
    ]
    for (kind, resolveOne) in workloads {
        Benchmark("80,000 resolves (\(kind)) on 1 thread", configuration: .init(scalingFactor: .one)) { _ in
            for _ in 0..<80_000 { resolveOne() }
        }
        Benchmark("80,000 resolves (\(kind)) on 8 threads", configuration: .init(scalingFactor: .one)) { _ in
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<10_000 { resolveOne() }
            }
        }
    }
}
