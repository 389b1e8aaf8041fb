#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking
import GirdersTestServers

/// A cancelled or timed-out request on URLSessionTransport returns at once, without waiting for URLSession to report
/// the task's end: FoundationNetworking reports it on one work queue, which a hostile response can keep busy for
/// seconds (100,000 header fields: 6-10 s of its CPU, and a 3 s deadline overrun by 5-12 s). Here the session's
/// delegate queue is held, so URLSession can report nothing: the request must still end.
struct URLSessionGiveUpTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    func heldClient() -> (HTTPClient, OperationQueue) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let transport = URLSessionTransport(configuration: .ephemeral, delegateQueue: queue)
        return (HTTPClient(transport: transport), queue)
    }

    func arrivals(_ name: String) async -> Int {
        let response = try? await makeClient().perform(Request(URL: server.url("/arrivals?name=\(name)"), method: .get))
        return response.flatMap { Int(String(decoding: $0.body, as: UTF8.self)) } ?? -1
    }

    @Test func aCancelledRequestEndsWhileURLSessionCannotReportIt() async throws {
        let (client, queue) = heldClient()
        let name = UUID().uuidString
        let task = Task { try await client.perform(Request(URL: server.url("/hold?name=\(name)"), method: .get)) }
        try await waitUntil(asking: { await arrivals(name) == 1 })
        task.cancel()
        let error = await responseError { _ = try await task.value }
        #expect(error?.isCancellation == true, "\(String(describing: error))")
        #expect(queue.isSuspended)  // ended while the delegate queue was still held
        _ = try await makeClient().perform(Request(URL: server.url("/release?name=\(name)"), method: .get))
        queue.isSuspended = false
    }

    @Test func aTimeoutEndsTheRequestWhileURLSessionCannotReportIt() async throws {
        let (client, queue) = heldClient()
        let name = UUID().uuidString
        // A fractional timeout is kept by TaskControl itself (FoundationNetworking rounds it to whole seconds).
        let error = await responseError {
            _ = try await client.perform(
                Request(MutableRequest(url: server.url("/hold?name=\(name)")) |> withTimeout(0.5)))
        }
        #expect(error?.kind == .timedOut, "\(String(describing: error))")
        #expect(queue.isSuspended)
        _ = try await makeClient().perform(Request(URL: server.url("/release?name=\(name)"), method: .get))
        queue.isSuspended = false
    }
}
#endif
