#if os(Linux)
import Foundation
import GirdersNetworking
import GirdersTestServers
import GirdersNetworkingTesting
import Testing

/// CurlTransport's thread as a task executor: requests made from a task that prefers it run there, behave as every
/// other request does, and a task that outlives the transport still finishes.
struct CurlTaskExecutorTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test func requestsFromATaskThatPrefersItRunOnTheTransportsThread() async throws {
        let transport = CurlTransport()
        let client = HTTPClient(transport: transport)
        let url = server.url("/small")
        let (threads, statuses) = try await withTaskExecutorPreference(transport.taskExecutor) {
            var threads: Set<String> = [currentThreadName()]
            var statuses: [Int] = []
            for _ in 0..<20 {
                statuses.append(try await client.perform(Request(URL: url, method: .get)).statusCode)
                threads.insert(currentThreadName())
            }
            return (threads, statuses)
        }
        #expect(threads == ["girders.curl"], "every step of the task ran on the engine's thread")
        #expect(statuses == Array(repeating: 200, count: 20))
    }

    @Test func sixteenTasksInFlightOnItEachGetTheirOwnResponse() async throws {
        let transport = CurlTransport()
        let client = HTTPClient(transport: transport)
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 1...16 {
                group.addTask(executorPreference: transport.taskExecutor) {
                    let url = server.url("/bytes?n=\(index * 100)")
                    return try await client.perform(Request(URL: url, method: .get)).body.count
                }
            }
            var sizes: [Int] = []
            for try await size in group { sizes.append(size) }
            return sizes.sorted()
        }
        #expect(sizes == (1...16).map { $0 * 100 })
    }

    @Test func cancellingATaskOnItStopsItsTransfer() async throws {
        let transport = CurlTransport()
        let client = HTTPClient(transport: transport)
        let name = UUID().uuidString
        let request = Request(URL: server.url("/drip?bytes=100000&interval_ms=20&name=\(name)"), method: .get)
        let reader = Task(executorPreference: transport.taskExecutor) { () -> ResponseError? in
            await responseError { _ = try await client.perform(request) }
        }
        try await waitUntil(asking: { (try? await server.count("drip-\(name)")) == 1 })  // the body is being sent
        reader.cancel()
        let error = await reader.value
        #expect(error?.isCancellation == true, "\(String(describing: error))")
    }

    @Test func itPassesTheTransportConformanceSuite() async {
        let transport = CurlTransport()
        let failures = await withTaskExecutorPreference(transport.taskExecutor) {
            await TransportConformance { transport }.run()
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func aTaskThatPrefersTheExecutorOfAReleasedTransportStillFinishes() async throws {
        var transport: CurlTransport? = CurlTransport()
        let executor = try #require(transport?.taskExecutor)
        transport = nil  // the engine's thread ends
        let result = await withTaskExecutorPreference(executor) { () async -> Int in
            for _ in 0..<10 { await Task.yield() }
            return currentThreadName() == "girders.curl" ? -1 : 42
        }
        #expect(result == 42, "the task ran elsewhere, not on the ended thread")
    }
}
#endif
