#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// A server that misbehaves mid-response: every fault is a clear error, within the timeout, for plain requests and
/// for downloads.
struct FaultTests {
    let server: LoopbackServer
    let client = makeClient()

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test(arguments: ["short", "reset"])
    func aBodyCutOffMidwayIsAnInterruptedErrorNamingTheURL(kind: String) async throws {
        let url = server.url("/fault/\(kind)?n=400000")
        let error = await responseError {
            let _: Response<Data> = try await client.executeRequest(request: Request(URL: url, method: .get))
        }
        guard case .interrupted(let failedURL, _, let expected, let reason) = error else {
            Issue.record("expected interrupted, got \(String(describing: error))")
            return
        }
        #expect(failedURL == url)
        #expect(expected == nil || expected == 400_000)
        #expect(!reason.isEmpty)
        #expect(error?.description.contains("was cut off") == true)
    }

    @Test(arguments: ["short", "reset"])
    func aDownloadCutOffMidwayReportsHowMuchArrivedAndKeepsNoFile(kind: String) async throws {
        let folder = try temporaryFolder()
        let url = server.url("/fault/\(kind)?n=400000")
        let error = await responseError {
            _ = try await client.download(Request(URL: url, method: .get), to: folder.appendingPathComponent("f"))
        }
        guard case .interrupted(_, let received, let expected, _) = error else {
            Issue.record("expected interrupted, got \(String(describing: error))")
            return
        }
        #expect(received == 200_000 && expected == 400_000)
        #expect(try fileNames(in: folder).isEmpty)
    }

    @Test func aStallingServerTimesOutAfterTheConfiguredTimeout() async throws {
        let request = Request(MutableRequest(url: server.url("/fault/stall")) |> withTimeout(1))
        let started = ContinuousClock.now
        let error = await responseError { let _: Response<Data> = try await client.executeRequest(request: request) }
        #expect(error == .timedOut(url: request.fullURL))
        #expect(ContinuousClock.now - started >= .milliseconds(900))  // it did wait for the timeout
    }

    @Test func aStallingDownloadTimesOutAndKeepsNoFile() async throws {
        let folder = try temporaryFolder()
        let request = Request(MutableRequest(url: server.url("/fault/stall")) |> withTimeout(1))
        let error = await responseError {
            _ = try await client.download(request, to: folder.appendingPathComponent("stalled"))
        }
        #expect(error == .timedOut(url: request.fullURL))
        #expect(try fileNames(in: folder).isEmpty)
    }

    @Test func anInterruptedGETIsRetriedByTheRetryPolicy() async throws {
        let retrying = makeClient().adding(RetryPolicy(maximumAttempts: 2, baseDelay: 0.01))
        let monitor = AttemptCounter()
        let client = HTTPClient(
            transport: retrying.transport, interceptors: retrying.interceptors, monitors: [monitor])
        _ = await responseError {
            let _: Response<Data> = try await client.executeRequest(
                request: Request(URL: server.url("/fault/reset?n=100000"), method: .get))
        }
        #expect(monitor.attempts.values == [1, 2])
    }
}

/// Counts the attempts a client makes.
final class AttemptCounter: EventMonitor {
    let attempts = LockedList<Int>()

    func requestWillStart(_ request: Request, attempt: Int) {
        attempts.append(attempt)
    }

    func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double
    ) {}
}
#endif
