#if os(Linux)
import Foundation
@testable import GirdersNetworking
import GirdersSupport
import GirdersTestServers
import Testing

/// A caller drives libcurl on its own thread while the engine's thread waits with nothing in flight, and hands its
/// transfer to that thread when the response is slow, a second request arrives, or the task is cancelled.
struct CurlDrivingTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test func aRequestSentWhileTheEngineWaitsRunsOnTheCallersThread() async throws {
        // A window no loopback response misses, so the drive never hands over.
        let transport = CurlTransport(callersWindowNanoseconds: 600_000_000_000)
        let client = HTTPClient(transport: transport)
        _ = try await client.perform(Request(URL: server.url("/small"), method: .get))
        try await waitUntil { transport.engineWaitsForCallers }
        let threads = LockedState<Set<String>>([])
        let options = TransferOptions(progress: { _ in threads.withLock { _ = $0.insert(currentThreadName()) } })
        let response = try await client.perform(
            Request(URL: server.url("/bytes?n=5000"), method: .get), options: options)
        #expect(response.body.count == 5000)
        let names = threads.withLock { $0 }
        #expect(!names.isEmpty && !names.contains("girders.curl"), "libcurl ran on \(names), not the caller's thread")
        #expect(transport.engineWaitsForCallers, "the engine's thread still waits: nothing was handed to it")
    }

    @Test func aRequestBodyIsReadOnTheCallersThreadAndArrivesIntact() async throws {
        let transport = CurlTransport(callersWindowNanoseconds: 600_000_000_000)
        let client = HTTPClient(transport: transport)
        try await waitUntil { transport.engineWaitsForCallers }
        let data = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let threads = LockedState<Set<String>>([])
        let request = Request(MutableRequest(method: .post, url: server.url("/sink")) |> withBody(data))
        let response = try await client.upload(request) { progress in
            if progress.direction == .upload { threads.withLock { _ = $0.insert(currentThreadName()) } }
        }
        let report = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        #expect(report?["length"] as? Int == data.count)
        let expectedHash = try await sha256(data)
        #expect(report?["sha256"] as? String == expectedHash)
        let names = threads.withLock { $0 }
        #expect(!names.isEmpty && !names.contains("girders.curl"), "the body was read on \(names)")
    }

    @Test func aResponseSlowerThanTheWindowIsHandedToTheEnginesThread() async throws {
        let transport = CurlTransport(callersWindowNanoseconds: 1_000_000)
        let client = HTTPClient(transport: transport)
        try await waitUntil { transport.engineWaitsForCallers }
        let threads = LockedState<Set<String>>([])
        let options = TransferOptions(progress: { _ in threads.withLock { _ = $0.insert(currentThreadName()) } })
        // An answer 300 ms late, long after the caller's millisecond (and longer than a loaded machine stalls a thread
        // between the drive's check of its window and its next read).
        let response = try await client.perform(
            Request(URL: server.url("/delay?ms=300"), method: .get), options: options)
        #expect(String(decoding: response.body, as: UTF8.self) == "done")
        #expect(threads.withLock { $0.contains("girders.curl") }, "the engine's thread took the slow transfer")
        // The next requests still get their responses, driven by the caller or sent to the thread.
        for size in [10, 2000, 30] {
            let next = try await client.perform(Request(URL: server.url("/bytes?n=\(size)"), method: .get))
            #expect(next.body.count == size)
        }
    }

    @Test func cancellingACallerWhoseTransferWasHandedOverStopsIt() async throws {
        let transport = CurlTransport(callersWindowNanoseconds: 1_000_000)
        let client = HTTPClient(transport: transport)
        try await waitUntil { transport.engineWaitsForCallers }
        let name = UUID().uuidString
        let request = Request(URL: server.url("/drip?bytes=100000&interval_ms=20&hold=1&name=\(name)"), method: .get)
        let reader = Task { await responseError { _ = try await client.perform(request) } }
        try await waitUntil(asking: { (try? await server.count("drip-\(name)")) == 1 })  // the body is being sent
        reader.cancel()
        let error = await reader.value
        #expect(error?.isCancellation == true, "\(String(describing: error))")
    }

    @Test func callersThatDriveAndTheEngineTakeTurnsWithoutLosingATransfer() async throws {
        // Eight callers one request after another, so the role passes between callers and the thread all the time:
        // some responses come at once (a caller drives), some late (handed over), some while another caller drives.
        let transport = CurlTransport(callersWindowNanoseconds: 1_000_000)
        let client = HTTPClient(transport: transport)
        let sizes = try await withThrowingTaskGroup(of: [Int].self) { group in
            for caller in 0..<8 {
                group.addTask {
                    var sizes: [Int] = []
                    for round in 0..<15 {
                        // Every fifth answer 5 ms late ("done", 4 bytes), the others at once.
                        let path = round % 5 == 4 ? "/delay?ms=5" : "/bytes?n=\(caller * 100 + round + 1)"
                        sizes.append(try await client.perform(Request(URL: server.url(path), method: .get)).body.count)
                    }
                    return sizes
                }
            }
            var all: [Int] = []
            for try await sizes in group { all += sizes }
            return all.sorted()
        }
        let expected = (0..<8).flatMap { caller in (0..<15).map { $0 % 5 == 4 ? 4 : caller * 100 + $0 + 1 } }
        #expect(sizes == expected.sorted())
        try await waitUntil { transport.engineWaitsForCallers }  // nothing left in flight
    }
}
#endif
