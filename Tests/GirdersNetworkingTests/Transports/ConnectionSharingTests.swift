#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// No request waits for another one's head or end. CurlTransport set `CURLOPT_PIPEWAIT` on every transfer, and
/// libcurl 7.88 parks a new transfer until it knows whether the origin's pending connection can multiplex, which an
/// HTTP/1.1 response tells only with its head, then lets the parked transfers go one per event: a long poll held
/// every other request to its origin, and a burst opened its connections one after another. The server holds a
/// request until the test releases it, so "the other request finished while this one was held" is a fact, not a
/// timing.
struct ConnectionSharingTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    /// How many requests arrived at the gate `name`, asked on a client of its own (so nothing it waits for can
    /// hold the question back).
    func arrivals(_ name: String) async -> Int {
        let response = try? await makeClient().perform(Request(URL: server.url("/arrivals?name=\(name)"), method: .get))
        return response.flatMap { Int(String(decoding: $0.body, as: UTF8.self)) } ?? -1
    }

    func release(_ name: String) async throws {
        _ = try await makeClient().perform(Request(URL: server.url("/release?name=\(name)"), method: .get))
    }

    @Test(arguments: TransportKind.allCases)
    func aRequestDoesNotWaitForTheHeadOfAnotherToTheSameOrigin(_ kind: TransportKind) async throws {
        let name = UUID().uuidString
        let client = kind.client()
        let held = Task {
            try await client.perform(Request(MutableRequest(url: server.url("/hold?name=\(name)")) |> withTimeout(90)))
        }
        try await waitUntil(asking: { await arrivals(name) == 1 })
        try #require(await arrivals(name) == 1)
        // Held by the server until released below: this one must not wait for it (it did, until its own timeout).
        let quick = try await client.perform(Request(MutableRequest(url: server.url("/small")) |> withTimeout(20)))
        #expect(quick.statusCode == 200)
        try await release(name)
        #expect(try await held.value.body == Data("released".utf8))
    }

    @Test(arguments: TransportKind.allCases)
    func aBurstToAnHTTP1OriginOpensItsConnectionsAtOnce(_ kind: TransportKind) async throws {
        // The server answers only once all six wait at the same time, each on a connection of its own (six is
        // URLSession's default limit per host; CurlTransport sets none unless asked).
        let name = UUID().uuidString
        let client = kind.client()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await client.perform(
                        Request(MutableRequest(url: server.url("/barrier?name=\(name)&n=6")) |> withTimeout(60))
                    ).statusCode
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 6))
    }
}
#endif
