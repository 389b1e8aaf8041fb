import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking

/// How libcurl's facts and URLSession's transaction metrics become ``RequestMetrics``, with values of the tests' own:
/// the URLSession mapping runs nowhere else here (FoundationNetworking delivers no task metrics).
struct RequestMetricsMappingTests {
    let url = URL(string: "https://api.example.com/items") ?? URL(fileURLWithPath: "/")

    @Test func libcurlsCumulativeTimesBecomePhases() {
        let facts = RequestMetrics.CurlFacts(
            nameLookup: 1_000, connect: 3_000, appConnect: 10_000, preTransfer: 10_500, startTransfer: 40_000,
            total: 45_000, httpVersion: 3, newConnections: 1, requestHeadBytes: 120, uploadedBytes: 1_000,
            responseHeadBytes: 200, downloadedBytes: 5_000)
        let metrics = RequestMetrics(url: url, curl: facts)
        #expect(metrics.domainLookup == .microseconds(1_000))
        #expect(metrics.connect == .microseconds(2_000))
        #expect(metrics.secureConnection == .microseconds(7_000))
        #expect(metrics.timeToFirstByte == .microseconds(40_000))
        #expect(metrics.transfer == .microseconds(5_000))
        #expect(metrics.total == .microseconds(45_000))
        #expect(metrics.networkProtocol == .http2)
        #expect(metrics.reusedConnection == false)
        #expect(metrics.bytesSent == 1_120)
        #expect(metrics.bytesReceived == 5_200)
        #expect(metrics.url == url)
    }

    @Test func aReusedConnectionHasNoLookupConnectOrTLSPhase() {
        // libcurl still reports a few microseconds of "lookup" for a reused connection.
        let facts = RequestMetrics.CurlFacts(
            nameLookup: 10, connect: 0, appConnect: 0, preTransfer: 170, startTransfer: 900, total: 1_000,
            httpVersion: 2, newConnections: 0)
        let metrics = RequestMetrics(url: url, curl: facts)
        #expect(metrics.reusedConnection == true)
        #expect(metrics.domainLookup == nil && metrics.connect == nil && metrics.secureConnection == nil)
        #expect(metrics.networkProtocol == .http1_1)
        #expect(metrics.timeToFirstByte == .microseconds(900))
    }

    @Test func aRefusedConnectionIsNeitherNewNorReusedAndHasNoFirstByte() {
        // What libcurl 7.88 reports for a refused connection: a lookup, nothing else, no connection opened.
        let facts = RequestMetrics.CurlFacts(nameLookup: 11, total: 74)
        let metrics = RequestMetrics(url: url, curl: facts)
        #expect(metrics.reusedConnection == nil)
        #expect(metrics.domainLookup == .microseconds(11))
        #expect(metrics.connect == nil && metrics.timeToFirstByte == nil && metrics.transfer == nil)
        #expect(metrics.networkProtocol == nil)
        #expect(metrics.total == .microseconds(74))
        #expect(metrics.bytesSent == 0)
    }

    @Test(arguments: [(1, RequestMetrics.NetworkProtocol.http1_0), (2, .http1_1), (3, .http2), (30, .http3)])
    func everyHTTPVersionLibcurlNamesIsMapped(version: Int, expected: RequestMetrics.NetworkProtocol) {
        #expect(RequestMetrics(url: url, curl: .init(httpVersion: version)).networkProtocol == expected)
    }

    @Test func anUnknownHTTPVersionIsNoProtocol() {
        #expect(RequestMetrics(url: url, curl: .init(httpVersion: 0)).networkProtocol == nil)
        #expect(RequestMetrics(url: url, curl: .init(httpVersion: 4)).networkProtocol == nil)
    }

    @Test func aURLSessionTransactionOverTLSBecomesPhases() {
        let start = Date(timeIntervalSinceReferenceDate: 1_000)
        func at(_ milliseconds: Double) -> Date { start.addingTimeInterval(milliseconds / 1_000) }
        let transaction = RequestMetrics.Transaction(
            fetchStart: start, domainLookupStart: at(1), domainLookupEnd: at(3), connectStart: at(3),
            connectEnd: at(20), secureConnectionStart: at(8), secureConnectionEnd: at(20), requestStart: at(21),
            responseStart: at(50), responseEnd: at(60), networkProtocolName: "h2", isReusedConnection: false,
            requestHeaderBytes: 100, requestBodyBytes: 10, responseHeaderBytes: 300, responseBodyBytes: 4_000)
        let metrics = RequestMetrics(url: url, transaction: transaction)
        #expect(metrics.domainLookup.map(milliseconds) == 2)
        #expect(metrics.connect.map(milliseconds) == 5, "URLSession's connect ends after TLS; TCP's part ends at 8")
        #expect(metrics.secureConnection.map(milliseconds) == 12)
        #expect(metrics.timeToFirstByte.map(milliseconds) == 50)
        #expect(metrics.transfer.map(milliseconds) == 10)
        #expect(metrics.total.map(milliseconds) == 60)
        #expect(metrics.networkProtocol == .http2)
        #expect(metrics.reusedConnection == false)
        #expect(metrics.bytesSent == 110)
        #expect(metrics.bytesReceived == 4_300)
    }

    @Test func aURLSessionTransactionOnAReusedPlainConnectionHasOnlyItsExchange() {
        let start = Date(timeIntervalSinceReferenceDate: 5_000)
        let transaction = RequestMetrics.Transaction(
            fetchStart: start, requestStart: start, responseStart: start.addingTimeInterval(0.004),
            responseEnd: start.addingTimeInterval(0.005), networkProtocolName: "http/1.1", isReusedConnection: true)
        let metrics = RequestMetrics(url: url, transaction: transaction)
        #expect(metrics.reusedConnection == true)
        #expect(metrics.domainLookup == nil && metrics.connect == nil && metrics.secureConnection == nil)
        #expect(metrics.timeToFirstByte.map(milliseconds) == 4)
        #expect(metrics.networkProtocol == .http1_1)
    }

    @Test func anUnknownProtocolNameAndDatesOutOfOrderAreNotInvented() {
        let start = Date(timeIntervalSinceReferenceDate: 9_000)
        let transaction = RequestMetrics.Transaction(
            fetchStart: start, responseStart: start.addingTimeInterval(-1), responseEnd: nil,
            networkProtocolName: "spdy/3.1")
        let metrics = RequestMetrics(url: url, transaction: transaction)
        #expect(metrics.networkProtocol == nil)
        #expect(metrics.timeToFirstByte == .zero, "a response before its fetch is clamped, not negative")
        #expect(metrics.transfer == nil && metrics.total == nil)
    }

    private func milliseconds(_ duration: Duration) -> Int {
        Int((Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3).rounded())
    }
}

/// Measuring only when someone reads it: the sink tells the transport.
struct MetricsCollectionTests {
    /// Answers 200 and keeps whether each sink asked for metrics.
    final class AskingTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        /// Invariant: read and written only under `lock`.
        private var asked: [Bool] = []
        var answers: [Bool] { lock.withLock { asked } }

        func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
            lock.withLock { asked.append(sink.collectsMetrics) }
            try sink.receiveHead(statusCode: 200, headers: HTTPHeaders(["Content-Length": "0"]))
        }
    }

    struct Silent: EventMonitor {}

    @Test func aClientWithoutMonitorsAsksItsTransportToMeasureNothing() async throws {
        let url = URL(string: "https://api.example.com/") ?? URL(fileURLWithPath: "/")
        let transport = AskingTransport()
        _ = try await HTTPClient(transport: transport).perform(Request(URL: url, method: .get))
        _ = try await HTTPClient(transport: transport, monitors: [Silent()]).perform(Request(URL: url, method: .get))
        #expect(transport.answers == [false, true])
    }
}
