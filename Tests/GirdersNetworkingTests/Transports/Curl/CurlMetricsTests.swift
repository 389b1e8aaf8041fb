#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
#if os(Linux)
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What CurlTransport measures of each exchange, as event monitors receive it (``RequestMetrics``), against the
/// loopback server; over TLS and HTTP/2 in `CurlTLSTests`.
struct CurlMetricsTests {
    let server: LoopbackServer
    let recorder = MetricsRecorder()
    let client: HTTPClient

    init() throws {
        server = try LoopbackServer.get()
        client = HTTPClient(transport: CurlTransport(), monitors: [recorder])
    }

    @Test func aFirstExchangeOpensAConnectionAndTheNextReusesIt() async throws {
        _ = try await client.perform(Request(URL: server.url("/small"), method: .get))
        _ = try await client.perform(Request(URL: server.url("/small"), method: .get))
        let measured = recorder.metrics.values
        try #require(measured.count == 2)
        let first = measured[0]
        #expect(first.url == server.url("/small"))
        #expect(first.reusedConnection == false)
        #expect(first.domainLookup != nil && first.connect != nil)
        #expect(first.secureConnection == nil, "plain http has no TLS phase")
        #expect(first.networkProtocol == .http1_1)
        let (firstByte, total) = (try #require(first.timeToFirstByte), try #require(first.total))
        #expect(firstByte > .zero && firstByte <= total)
        #expect(first.transfer.map { firstByte + $0 } == total)
        #expect(try #require(first.bytesReceived) > 13, "the 13-byte body and its head")
        #expect(try #require(first.bytesSent) > 20, "the request line and its fields")
        let second = measured[1]
        #expect(second.reusedConnection == true)
        #expect(second.domainLookup == nil && second.connect == nil)
    }

    @Test func aServerThatWaitsBeforeAnsweringShowsInTheTimeToFirstByte() async throws {
        // The server sleeps 300 ms before its first byte: a lower bound, whatever the machine's speed.
        _ = try await client.perform(Request(URL: server.url("/delay?ms=300"), method: .get))
        let metrics = try #require(recorder.metrics.values.first)
        #expect(try #require(metrics.timeToFirstByte) >= .milliseconds(300))
        #expect(try #require(metrics.total) >= .milliseconds(300))
    }

    @Test func theBodiesBothWaysAreCountedInTheBytes() async throws {
        let upload = Data(repeating: 0x61, count: 10_000)
        _ = try await client.perform(
            Request(MutableRequest(method: .post, url: server.url("/echo")) |> withBody(upload)))
        _ = try await client.perform(Request(URL: server.url("/bytes?n=100000"), method: .get))
        let measured = recorder.metrics.values
        try #require(measured.count == 2)
        #expect(try #require(measured[0].bytesSent) >= 10_000)
        #expect(try #require(measured[1].bytesReceived) >= 100_000)
        #expect(try #require(measured[1].bytesSent) < 1_000)
    }

    @Test func eachRedirectHopIsMeasuredBeforeTheAttemptFinishes() async throws {
        let target = server.url("/small").absoluteString
        let url = server.url(
            "/redirect/302?to=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        _ = try await client.perform(Request(URL: url, method: .get))
        #expect(recorder.events.values == ["start 1", "metrics 1 /redirect/302", "metrics 1 /small", "finish 1"])
        #expect(recorder.metrics.values.map(\.url) == [url, server.url("/small")])
    }

    @Test func aRefusedConnectionIsMeasuredAsNoConnectionAndNoFirstByte() async throws {
        let port = try LoopbackServer.refusedPort()
        _ = await responseError {
            _ = try await client.perform(Request(URL: server.url("/").withPort(port), method: .get))
        }
        #expect(recorder.events.values == ["start 1", "metrics 1 /", "finish 1"])
        let metrics = try #require(recorder.metrics.values.first)
        #expect(metrics.reusedConnection == nil)
        #expect(metrics.connect == nil && metrics.timeToFirstByte == nil && metrics.networkProtocol == nil)
    }

    @Test func everyAttemptIsMeasuredUnderItsOwnNumber() async throws {
        let retrying = HTTPClient(
            transport: CurlTransport(),
            interceptors: [RetryPolicy(maximumAttempts: 2, baseDelay: 0.01)], monitors: [recorder])
        _ = await responseError {
            _ = try await retrying.perform(Request(URL: server.url("/fault/reset?n=100000"), method: .get))
        }
        #expect(
            recorder.events.values == [
                "start 1", "metrics 1 /fault/reset", "finish 1", "start 2", "metrics 2 /fault/reset", "finish 2",
            ])
    }

    @Test func aStreamedResponseIsMeasuredOnceItsBodyIsRead() async throws {
        let streamed = try await client.stream(Request(URL: server.url("/bytes?n=200000"), method: .get))
        var read = 0
        for try await chunk in streamed.body { read += chunk.count }
        #expect(read == 200_000)
        // The transfer reports as it ends, on its own task, just after the body's last piece.
        try await waitUntil { !recorder.metrics.values.isEmpty }
        let metrics = try #require(recorder.metrics.values.first)
        #expect(try #require(metrics.bytesReceived) >= 200_000)
    }

    @Test func aDownloadIsMeasuredLikeAnyExchange() async throws {
        let folder = try temporaryFolder()
        _ = try await client.download(
            Request(URL: server.url("/bytes?n=50000"), method: .get), to: folder.appendingPathComponent("f"))
        let metrics = try #require(recorder.metrics.values.first)
        #expect(try #require(metrics.bytesReceived) >= 50_000)
    }

    @Test func requestsAnsweredByACoalescedFlightReportNoMetricsAsDocumented() async throws {
        let client = HTTPClient(transport: CoalescingTransport(CurlTransport()), monitors: [recorder])
        _ = try await client.perform(Request(URL: server.url("/small"), method: .get))
        #expect(recorder.events.values == ["start 1", "finish 1"])
    }

    #if canImport(FoundationNetworking)
    @Test func urlSessionOnLinuxMeasuresNothingAsDocumented() async throws {
        // FoundationNetworking never calls urlSession(_:task:didFinishCollecting:); should it start to, this test
        // fails and RequestMetrics' documentation changes with it.
        let client = HTTPClient(transport: URLSessionTransport(configuration: .default), monitors: [recorder])
        _ = try await client.perform(Request(URL: server.url("/small"), method: .get))
        #expect(recorder.events.values == ["start 1", "finish 1"])
    }
    #endif
}

/// Records the events and metrics a client reports, in order.
final class MetricsRecorder: EventMonitor {
    let events = LockedList<String>()
    let metrics = LockedList<RequestMetrics>()

    func requestWillStart(_ request: Request, attempt: Int) {
        events.append("start \(attempt)")
    }

    func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double
    ) {
        events.append("finish \(attempt)")
    }

    func requestDidCollectMetrics(_ request: Request, attempt: Int, metrics: RequestMetrics) {
        events.append("metrics \(attempt) \(request.url.path)")
        self.metrics.append(metrics)
    }
}
#endif
#endif
