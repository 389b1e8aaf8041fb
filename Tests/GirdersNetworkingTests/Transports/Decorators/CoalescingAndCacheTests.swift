#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking

/// Identical GETs sharing one call, and revalidation with ETag and Last-Modified.
struct CoalescingAndCacheTests {
    struct Served: Decodable, Equatable { let name: String; let served: Int }

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    func coalescingClient() -> (HTTPClient, CoalescingTransport) {
        let transport = CoalescingTransport(URLSessionTransport(configuration: .ephemeral))
        return (HTTPClient(transport: transport), transport)
    }

    @available(*, deprecated, message: "exercises the deprecated RevalidatingTransport")
    func revalidatingClient(_ cache: ResponseCache) -> HTTPClient {
        HTTPClient(transport: RevalidatingTransport(URLSessionTransport(configuration: .ephemeral), cache: cache))
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

    @available(*, deprecated, message: "exercises the deprecated RevalidatingTransport")
    @Test(arguments: [("1", "1"), ("1", "0"), ("0", "1")])
    func aSecondGETIsRevalidatedAndA304IsAnsweredFromTheStoredResponse(
        etag: String, lastModified: String
    )
        async throws
    {
        let cache = ResponseCache()
        let client = revalidatingClient(cache)
        let name = UUID().uuidString
        let request = Request(URL: server.url("/cached?name=\(name)&etag=\(etag)&lm=\(lastModified)"), method: .get)
        let first: Response<Served> = try await client.executeRequest(request: request)
        let second: Response<Served> = try await client.executeRequest(request: request)
        #expect(first.bodyObject == Served(name: name, served: 1))
        #expect(second.bodyObject == Served(name: name, served: 1))
        #expect(second.statusCode == 200 && second.raw.request == request)
        #expect(second.headers["X-Revalidated"] == "yes")  // the 304's headers are merged in
        #expect(try await server.count("cached-\(name)-200") == 1)
        #expect(try await server.count("cached-\(name)-304") == 1)
        #expect(cache.count == 1)
    }

    @available(*, deprecated, message: "exercises the deprecated RevalidatingTransport")
    @Test func aResponseWithoutValidatorsIsNotStored() async throws {
        let cache = ResponseCache()
        let client = revalidatingClient(cache)
        let name = UUID().uuidString
        let request = Request(URL: server.url("/cached?name=\(name)&etag=0&lm=0"), method: .get)
        let _: Response<Served> = try await client.executeRequest(request: request)
        let second: Response<Served> = try await client.executeRequest(request: request)
        #expect(second.bodyObject?.served == 2)
        #expect(cache.count == 0)
    }

    @available(*, deprecated, message: "exercises the deprecated RevalidatingTransport")
    @Test func anotherUsersCredentialIsNotAnsweredFromTheStoredResponse() async throws {
        let client = revalidatingClient(ResponseCache())
        let name = UUID().uuidString
        let url = server.url("/cached?name=\(name)")
        for token in ["ada", "grace"] {
            let _: Response<Served> = try await client.executeRequest(
                request: Request(MutableRequest(url: url) |> withBearerToken(token)))
        }
        #expect(try await server.count("cached-\(name)-200") == 2)
        #expect(try await server.count("cached-\(name)-304") == 0)
    }

    @available(*, deprecated, message: "exercises the deprecated RevalidatingTransport")
    @Test func theCacheEvictsTheLeastRecentlyUsedResponseBeyondItsLimit() async throws {
        let cache = ResponseCache(maximumEntries: 2)
        let client = revalidatingClient(cache)
        let names = (0..<3).map { _ in UUID().uuidString }
        for name in names {
            let _: Response<Served> = try await client.executeRequest(
                request: Request(URL: server.url("/cached?name=\(name)"), method: .get))
        }
        #expect(cache.count == 2)
        let _: Response<Served> = try await client.executeRequest(
            request: Request(URL: server.url("/cached?name=\(names[0])"), method: .get))
        #expect(try await server.count("cached-\(names[0])-200") == 2)  // evicted, so fetched in full again
    }
}
#endif
