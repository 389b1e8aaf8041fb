#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Dispatch
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// Timeouts, cancellation and the completion-handler variant.
struct CancellationTests {
    let server: LoopbackServer
    let client = makeClient()

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test func aRequestSlowerThanItsTimeoutFailsWithTimedOut() async throws {
        // Without a working timeout the server answers after 8 s and the request succeeds.
        let request = Request(MutableRequest(url: server.url("/delay?ms=8000")) |> withTimeout(0.5))
        let error = await responseError { let _: Response<String> = try await client.executeRequest(request: request) }
        #expect(error == .timedOut(url: request.fullURL))
    }

    @Test func cancellingTheSwiftTaskStopsATransferMidwayWithACancellationError() async throws {
        // The body never ends while the client keeps the connection: only a cancel that stops the transfer ends it.
        let name = UUID().uuidString
        // The timeout is not under test: a sanitized build's reader can wait for a turn past the default minute.
        let request = Request(
            MutableRequest(url: server.url("/drip?bytes=100&interval_ms=100&hold=1&name=\(name)"))
                |> withTimeout(WireRequest.defaultTimeout * sanitizerSlowdown))
        let task = Task { () async throws -> Response<Data> in try await client.executeRequest(request: request) }
        try await waitUntil(asking: { (try? await server.count("drip-\(name)")) == 1 })  // the body is being sent
        #expect(try await server.count("drip-\(name)") == 1)
        task.cancel()
        let result = await task.result
        guard case .failure(let error as ResponseError) = result else {
            Issue.record("expected a ResponseError, got \(result)")
            return
        }
        #expect(error.isCancellation)
        #expect(error == .cancelled(url: request.fullURL))
        // Stopped, not abandoned: the server sees the connection go away.
        try await waitUntil(asking: { (try? await server.count("drip-closed-\(name)")) == 1 })
        #expect(try await server.count("drip-closed-\(name)") == 1)
    }

    @Test func aTaskCancelledBeforeItStartsSendsNothing() async throws {
        let request = Request(URL: server.url("/echo"), method: .get)
        let task = Task { () async throws -> Response<Data> in
            while !Task.isCancelled { await Task.yield() }
            return try await client.executeRequest(request: request)
        }
        task.cancel()
        let error = await responseError { _ = try await task.value }
        #expect(error?.isCancellation == true)
    }

    @Test func theCompletionRunsExactlyOnceOnTheChosenQueue() async throws {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "girders.test.completion")
        queue.setSpecific(key: key, value: "chosen")
        let calls = LockedList<String?>()
        let names = await withCheckedContinuation { (continuation: CheckedContinuation<[String?]?, Never>) in
            let once = Once(continuation)
            client.executeRequest(request: Request(URL: server.url("/json/array"), method: .get), queue: queue) {
                (result: Result<Response<[[String: Any]]>, Error>) in
                calls.append(DispatchQueue.getSpecific(key: key))
                once.resume(returning: try? result.get().bodyObject?.map { $0["name"] as? String })
            }
        }
        await queue.drained()  // a second completion, had one been scheduled, would have run by now
        #expect(calls.values == ["chosen"])
        #expect(names == ["one", "two"])
    }

    @Test func cancellingTheHandleDeliversOneCancellationError() async throws {
        let calls = LockedList<String?>()
        let queue = DispatchQueue(label: "girders.test.cancel")
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
            let once = Once(continuation)
            let handle = client.executeRequest(
                request: Request(URL: server.url("/drip?bytes=200&interval_ms=20&hold=1"), method: .get), queue: queue
            ) {
                (result: Result<Response<Data>, any Error>) in
                calls.append("called")
                if case .failure(let error) = result {
                    once.resume(returning: error)
                } else {
                    once.resume(returning: nil)
                }
            }
            queue.asyncAfter(deadline: .now() + 0.2) {
                handle.cancel()
                #expect(handle.isCancelled)
            }
        }
        await queue.drained()  // a second completion, had one been scheduled, would have run by now
        #expect((error as? ResponseError)?.isCancellation == true)
        #expect(calls.values == ["called"])
    }

    @Test func theCompletionOfAFailedRequestCarriesTheResponseError() async throws {
        let queue = DispatchQueue(label: "girders.test.failure")
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
            let once = Once(continuation)
            client.executeRequest(request: Request(URL: server.url("/status/404"), method: .get), queue: queue) {
                (result: Result<Response<Data>, Error>) in
                if case .failure(let error) = result {
                    once.resume(returning: error)
                } else {
                    once.resume(returning: nil)
                }
            }
        }
        #expect((error as? ResponseError)?.statusCode == 404)
    }
}

/// Resumes a continuation at most once, so a double call shows up as a count instead of a crash.
final class Once<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = continuation
    }

    func resume(returning value: Value) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(returning: value)
    }
}
#endif
