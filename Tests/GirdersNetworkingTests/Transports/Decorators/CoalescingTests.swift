#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking
import GirdersTestServers

/// Identical GETs sharing one call.
struct CoalescingTests {
    struct Served: Decodable, Equatable { let name: String; let served: Int }

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    func coalescingClient() -> (HTTPClient, CoalescingTransport) {
        let transport = CoalescingTransport(URLSessionTransport(configuration: .default))
        return (HTTPClient(transport: transport), transport)
    }

    @Test func tenIdenticalGETsInFlightTogetherMakeOneNetworkCall() async throws {
        let (client, transport) = coalescingClient()
        let name = UUID().uuidString
        // 2 s: all ten start while the first is in flight even on a loaded machine (the run takes 2 s, not 20).
        let request = Request(URL: server.url("/delay?ms=2000&name=\(name)"), method: .get)
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    let response: Response<String> = try await client.executeRequest(request: request)
                    return response.bodyObject ?? ""
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies == Array(repeating: "done", count: 10))
        #expect(try await server.count("delay-\(name)") == 1)
        #expect(transport.callsInFlight == 0)
    }

    @Test func requestsThatDifferInAHeaderAreNotShared() async throws {
        let (client, _) = coalescingClient()
        let name = UUID().uuidString
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<3 {
                group.addTask {
                    let request = Request(
                        MutableRequest(url: server.url("/delay?ms=300&name=\(name)"))
                            |> withHeader("X-Index", "\(index)"))
                    let _: Response<String> = try await client.executeRequest(request: request)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await server.count("delay-\(name)") == 3)
    }

    @Test func aCallerThatCancelsLeavesTheOthersTheirResponse() async throws {
        let (client, coalescing) = coalescingClient()
        let name = UUID().uuidString
        let request = Request(URL: server.url("/delay?ms=2000&name=\(name)"), method: .get)
        let first = Task { () async throws -> Response<String> in try await client.executeRequest(request: request) }
        let second = Task { () async throws -> Response<String> in try await client.executeRequest(request: request) }
        // Both have joined the one call before the first leaves (a first that left alone would end the call).
        try await waitUntil { coalescing.callersInFlight == 2 }
        try #require(coalescing.callersInFlight == 2)
        first.cancel()
        let firstError = await responseError { _ = try await first.value }
        #expect(firstError?.isCancellation == true)
        #expect(try await second.value.bodyObject == "done")
        #expect(try await server.count("delay-\(name)") == 1)
    }

    @Test func whenEveryCallerCancelsTheSharedCallIsCancelledAndTheNextRequestStartsAfresh() async throws {
        let (client, transport) = coalescingClient()
        let name = UUID().uuidString
        let request = Request(URL: server.url("/drip?bytes=100&interval_ms=50&hold=1&name=\(name)"), method: .get)
        let tasks = (0..<3).map { _ in
            Task { () async throws -> Response<Data> in try await client.executeRequest(request: request) }
        }
        // All three have joined the one call, and its body is being sent.
        try await waitUntil { transport.callersInFlight == 3 }
        try await waitUntil(asking: { (try? await server.count("drip-\(name)")) == 1 })
        try #require(transport.callersInFlight == 3)
        for task in tasks { task.cancel() }
        for task in tasks {
            let error = await responseError { _ = try await task.value }
            #expect(error?.isCancellation == true)
        }
        #expect(transport.callsInFlight == 0)
        let fresh: Response<Data> = try await client.executeRequest(
            request: Request(URL: server.url("/bytes?n=10"), method: .get))
        #expect(fresh.body.count == 10)
    }
}
#endif
