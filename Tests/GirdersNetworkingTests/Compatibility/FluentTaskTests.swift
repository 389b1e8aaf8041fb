#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import GirdersNetworkingTesting
import Testing

/// DotDotDot-style handlers: each terminal handler exactly once, cancellation never reported as an error.
struct FluentTaskTests {
    struct Item: Decodable, Sendable { let name: String }

    let queue = DispatchQueue(label: "girders.test.fluent")

    /// Creates the task on its queue, as an app does on the main queue, so the chained handlers are in place
    /// before it starts.
    func events(_ task: @autoclosure () -> FluentTask<Item>, _ log: LockedList<String>) -> FluentTask<Item> {
        queue.sync { chain(task(), log) }
    }

    func chain(_ task: FluentTask<Item>, _ log: LockedList<String>) -> FluentTask<Item> {
        task.before { log.append("before") }
            .onCompletion { log.append("completion \($0.bodyObject?.name ?? "")") }
            .onError { log.append("error \($0.statusCode ?? 0)") }
            .onCancel { log.append("cancel") }
            .finally { log.append("finally") }
    }

    func waitForFinally(_ log: LockedList<String>, count: Int = 1) async throws {
        try await waitUntil { log.values.filter({ $0 == "finally" }).count >= count }
    }

    @Test func aChainBuiltInOneExpressionOffItsQueueRunsBeforeFirstThenOneOutcome() async throws {
        // Built from an async function, not on the task's queue: the request must still wait for the chain. The
        // stub answers at once, so a request that started before `.before` was added would show here.
        let client = HTTPClient(transport: StubTransport(responses: [.json(#"{"error":1}"#, statusCode: 502)]))
        let request = Request(URL: apiBase.appendingPathComponent("x"), method: .get)
        for round in 0..<200 {
            let log = LockedList<String>()
            let events = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
                client.task(request, as: Item.self, queue: queue)
                    .before { log.append("before") }
                    .onCompletion { _ in log.append("completion") }
                    .onError { log.append("error \($0.statusCode ?? 0)") }
                    .onCancel { log.append("cancel") }
                    .finally {
                        log.append("finally")
                        continuation.resume(returning: log.values)
                    }
            }
            #expect(events == ["before", "error 502", "finally"], "round \(round)")
            if events != ["before", "error 502", "finally"] { break }
        }
    }

    @Test func aSuccessRunsBeforeCompletionAndFinallyOnceEachInOrder() async throws {
        let log = LockedList<String>()
        let client = HTTPClient(transport: StubTransport(responses: [.json(#"{"name":"ok"}"#)]))
        _ = events(
            client.task(Request(URL: apiBase.appendingPathComponent("x"), method: .get), as: Item.self, queue: queue),
            log)
        try await waitForFinally(log)
        await queue.drained()  // every handler the task scheduled has run
        #expect(log.values == ["before", "completion ok", "finally"])
    }

    @Test func aFailureRunsOnErrorAndFinally() async throws {
        let log = LockedList<String>()
        let client = HTTPClient(transport: StubTransport(responses: [.json("{}", statusCode: 500)]))
        _ = events(
            client.task(Request(URL: apiBase.appendingPathComponent("x"), method: .get), as: Item.self, queue: queue),
            log)
        try await waitForFinally(log)
        #expect(log.values == ["before", "error 500", "finally"])
    }

    @Test func cancellingInFlightRunsOnCancelThenFinallyNeverOnError() async throws {
        let log = LockedList<String>()
        let client = HTTPClient(transport: StubTransport(responses: [.json("{}", delay: 30)]))
        let task = events(
            client.task(Request(URL: apiBase.appendingPathComponent("x"), method: .get), as: Item.self, queue: queue),
            log)
        // Cancelled once it has started (a cancellation before the start is the next test's case).
        try await waitUntil { log.values.contains("before") }
        task.cancel()
        try await waitForFinally(log)
        #expect(log.values == ["before", "cancel", "finally"])
        #expect(task.isFinished)
    }

    @Test func cancellingBeforeTheStartSendsNothing() async throws {
        let log = LockedList<String>()
        let transport = StubTransport(responses: [.json("{}")])
        queue.sync {
            let task = chain(
                HTTPClient(transport: transport).task(
                    Request(URL: apiBase.appendingPathComponent("x"), method: .get), as: Item.self, queue: queue), log)
            task.cancel()  // before the queue gets to start it
        }
        try await waitForFinally(log)
        #expect(log.values == ["cancel", "finally"])
        #expect(transport.requests.isEmpty)
    }

    @Test func handlersAddedAfterTheEndStillRun() async throws {
        let log = LockedList<String>()
        let client = HTTPClient(transport: StubTransport(responses: [.json(#"{"name":"late"}"#)]))
        // Created on its queue, it starts with no handler at all (created elsewhere, it would wait for one).
        let task = queue.sync {
            client.task(Request(URL: apiBase.appendingPathComponent("x"), method: .get), as: Item.self, queue: queue)
        }
        try await waitUntil { task.isFinished }
        try #require(task.isFinished)
        task.onCompletion { log.append("completion \($0.bodyObject?.name ?? "")") }.onError { _ in log.append("error") }
            .finally { log.append("finally") }
        try await waitForFinally(log)
        #expect(log.values == ["completion late", "finally"])
    }

    @Test func aHundredRandomCancellationsGiveExactlyOneTerminalCallbackEach() async throws {
        let log = LockedList<String>()
        let client = HTTPClient(
            transport: StubTransport { _, _ in .json(#"{"name":"x"}"#, delay: Double.random(in: 0...0.01)) })
        var tasks: [FluentTask<Item>] = []
        for index in 0..<100 {
            let task = client.task(
                Request(URL: apiBase.appendingPathComponent("\(index)"), method: .get), as: Item.self, queue: queue
            )
            .onCompletion { _ in log.append("terminal \(index)") }
            .onError { _ in log.append("error \(index)") }
            .onCancel { log.append("terminal \(index)") }
            .finally { log.append("finally") }
            tasks.append(task)
            let delay = Double.random(in: 0...0.01)
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { task.cancel() }
        }
        try await waitForFinally(log, count: 100)
        await queue.drained()  // every handler the 100 tasks scheduled has run
        let unfinished = tasks.filter { !$0.isFinished }.count
        #expect(unfinished == 0)
        let values = log.values
        #expect(values.filter { $0 == "finally" }.count == 100)
        #expect(!values.contains { $0.hasPrefix("error") })
        for index in 0..<100 {
            #expect(values.filter { $0 == "terminal \(index)" }.count == 1, "task \(index)")
        }
    }
}
#endif
