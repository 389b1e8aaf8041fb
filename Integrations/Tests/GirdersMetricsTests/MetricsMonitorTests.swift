import Foundation
import GirdersNetworking
import MetricsTestKit
import Testing

@testable import GirdersMetrics

/// ``MetricsMonitor`` against swift-metrics' in-memory backend, with a transport that answers every request with
/// the status in its path and measures what it was told to.
struct MetricsMonitorTests {
    let metrics = TestMetrics()

    /// Answers `/status/CODE` with CODE and a 5-byte body, recording `measured` for each exchange.
    struct MeasuredTransport: HTTPTransport {
        let measured: @Sendable (URL) -> RequestMetrics?

        func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
            if let metrics = measured(request.url) { sink.record(metrics) }
            let code = Int(request.url.lastPathComponent) ?? 200
            try sink.receiveHead(statusCode: code, headers: HTTPHeaders(["Content-Length": "5"]))
            try sink.receive(Data("hello".utf8))
        }
    }

    func client(_ measured: @escaping @Sendable (URL) -> RequestMetrics? = { _ in nil }) -> HTTPClient {
        HTTPClient(transport: MeasuredTransport(measured: measured), monitors: [MetricsMonitor(factory: metrics)])
    }

    func url(_ status: Int) -> URL {
        URL(string: "https://api.example.com/status/\(status)") ?? URL(fileURLWithPath: "/")
    }

    @Test func everyAttemptIsCountedByMethodAndStatusClass() async throws {
        let client = client()
        _ = try await client.perform(Request(URL: url(200), method: .get))
        _ = try await client.perform(Request(URL: url(204), method: .get))
        _ = try? await client.perform(Request(URL: url(404), method: .post))
        #expect(
            try metrics.expectCounter("girders_http_requests_total", [("method", "GET"), ("status_class", "2xx")])
                .totalValue == 2)
        #expect(
            try metrics.expectCounter("girders_http_requests_total", [("method", "POST"), ("status_class", "4xx")])
                .totalValue == 1)
        let durations = try metrics.expectTimer(
            "girders_http_request_duration", [("method", "GET"), ("status_class", "2xx")])
        #expect(durations.values.count == 2)
        #expect(durations.values.allSatisfy { $0 >= 0 })
    }

    @Test func aRequestWithoutAResponseIsCountedAsAnError() async throws {
        struct Refusing: HTTPTransport {
            func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
                throw .transport(url: request.url, code: 7, reason: "refused")
            }
        }
        let client = HTTPClient(transport: Refusing(), monitors: [MetricsMonitor(factory: metrics)])
        _ = try? await client.perform(Request(URL: url(200), method: .get))
        #expect(
            try metrics.expectCounter("girders_http_requests_total", [("method", "GET"), ("status_class", "error")])
                .totalValue == 1)
    }

    @Test func whatTheTransportMeasuredIsRecordedPerExchange() async throws {
        let client = client { url in
            var measured = RequestMetrics(url: url)
            measured.timeToFirstByte = .milliseconds(42)
            measured.bytesSent = 100
            measured.bytesReceived = 1_000
            measured.reusedConnection = false
            return measured
        }
        _ = try await client.perform(Request(URL: url(200), method: .get))
        _ = try await client.perform(Request(URL: url(200), method: .get))
        let method = [("method", "GET")]
        #expect(try metrics.expectTimer("girders_http_time_to_first_byte", method).values == [42_000_000, 42_000_000])
        #expect(try metrics.expectCounter("girders_http_bytes_sent_total", method).totalValue == 200)
        #expect(try metrics.expectCounter("girders_http_bytes_received_total", method).totalValue == 2_000)
        #expect(try metrics.expectCounter("girders_http_connections_opened_total", method).totalValue == 2)
    }

    @Test func aReusedConnectionAndMissingFieldsRecordNothingForThem() async throws {
        let client = client { url in
            var measured = RequestMetrics(url: url)
            measured.reusedConnection = true
            return measured
        }
        _ = try await client.perform(Request(URL: url(200), method: .get))
        #expect(metrics.counters(label: "girders_http_connections_opened_total").isEmpty)
        #expect(metrics.timers(label: "girders_http_time_to_first_byte").isEmpty)
        #expect(metrics.counters(label: "girders_http_bytes_sent_total").isEmpty)
    }

    @Test func labelsCarryThePrefixAndNoURL() async throws {
        let client = HTTPClient(
            transport: MeasuredTransport { _ in nil },
            monitors: [MetricsMonitor(prefix: "app_api", factory: metrics)])
        _ = try await client.perform(Request(URL: url(200), method: .get))
        let labels = metrics.counters.map(\.label) + metrics.timers.map(\.label)
        #expect(Set(labels) == ["app_api_requests_total", "app_api_request_duration"])
        #expect(metrics.counters.allSatisfy { $0.dimensions.allSatisfy { !$0.1.contains("example.com") } })
    }

    @Test(arguments: [(nil, "error"), (99, "error"), (100, "1xx"), (302, "3xx"), (599, "5xx"), (600, "error")])
    func statusClassesAreBounded(code: Int?, expected: String) {
        #expect(MetricsMonitor.statusClass(code) == expected)
    }
}
