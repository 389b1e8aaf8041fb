#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cancel that lands while FoundationNetworking is still setting a transfer up must not take the process down.
///
/// On Linux a session with a `URLCache` looks every request up on a background queue before the transfer
/// exists; a cancel in that window reports its error after the task has left the session, and
/// FoundationNetworking traps. ``URLSessionTransport`` drops the cache there, so these tests pass a configuration
/// that has one.
struct URLSessionCancelRaceTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test func aConfigurationWithACacheLosesItOnEveryPlatform() {
        // CachingTransport is the one cache, the same everywhere: URLSession's would cache a second time.
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        let transport = URLSessionTransport(configuration: configuration)
        #expect(transport.session.configuration.urlCache == nil)
        #expect(transport.session.configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(configuration.urlCache != nil, "the caller's configuration is not changed")
    }

    @Test func twoThousandRequestsCancelledAsTheyStartEndAsCancellationsWithoutATrap() async throws {
        // Before the cache was dropped, FoundationNetworking trapped within a few hundred of these rounds.
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        let client = HTTPClient(transport: URLSessionTransport(configuration: configuration))
        let request = Request(URL: server.url("/echo"), method: .get)
        var cancelled = 0
        var answered = 0
        for _ in 0..<40 {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let task = Task { () async throws -> Response<Data> in
                            try await client.executeRequest(request: request)
                        }
                        // Cancels spread over the first 2.5 ms: before, during and after the transfer's setup. The
                        // last of each round is left to finish: how many of the others finish before their cancel
                        // depends on the machine's load (a loaded CI run saw none).
                        if index < 49 {
                            try await Task.sleep(for: .microseconds(index * 50))
                            task.cancel()
                        }
                        switch await task.result {
                        case .success: return false
                        case .failure(let error): return try #require(error as? ResponseError).isCancellation
                        }
                    }
                }
                for try await wasCancelled in group {
                    if wasCancelled { cancelled += 1 } else { answered += 1 }
                }
            }
        }
        #expect(cancelled + answered == 2000)
        #expect(cancelled > 0)
        #expect(answered >= 40, "each round's uncancelled request is answered")
    }
}
#endif
