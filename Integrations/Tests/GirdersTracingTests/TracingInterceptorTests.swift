import Foundation
import GirdersNetworking
import InMemoryTracing
import Testing
import Tracing

@testable import GirdersTracing

/// ``TracingInterceptor`` with swift-distributed-tracing's in-memory tracer, through a transport that answers with
/// the status in the path and keeps the header fields each request went out with.
struct TracingInterceptorTests {
    /// Answers `/status/CODE` with CODE (200 otherwise) and keeps each request's wire header fields.
    final class CapturingTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        /// Invariant: read and written only under `lock`.
        private var captured: [HTTPHeaders] = []

        var sent: [HTTPHeaders] { lock.withLock { captured } }

        func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
            lock.withLock { captured.append(request.headers) }
            if request.url.path == "/refuse" { throw .cannotConnect(url: request.url, reason: "refused") }
            let code = request.url.path.hasPrefix("/status/") ? Int(request.url.lastPathComponent) ?? 200 : 200
            try sink.receiveHead(statusCode: code, headers: HTTPHeaders(["Content-Length": "2"]))
            try sink.receive(Data("ok".utf8))
        }
    }

    let tracer = InMemoryTracer()
    let transport = CapturingTransport()

    func client(_ interceptors: [any RequestInterceptor] = []) -> HTTPClient {
        HTTPClient(transport: transport, interceptors: interceptors + [TracingInterceptor(tracer: tracer)])
    }

    func url(_ path: String) -> URL { URL(string: "https://api.example.com:8443\(path)") ?? URL(fileURLWithPath: "/") }

    @Test func aRequestIsAClientSpanWithTheHTTPAttributesAndItsContextGoesOutInTheHeaders() async throws {
        _ = try await client().perform(Request(URL: url("/items?page=2"), method: .get))
        let span = try #require(tracer.finishedSpans.first)
        #expect(tracer.finishedSpans.count == 1)
        #expect(span.operationName == "GET")
        #expect(span.kind == .client)
        #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(span.attributes["url.full"]?.toSpanAttribute() == "https://api.example.com:8443/items?page=2")
        #expect(span.attributes["server.address"]?.toSpanAttribute() == "api.example.com")
        #expect(span.attributes["server.port"]?.toSpanAttribute() == 8443)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(span.attributes["error.type"] == nil && span.status == nil)
        // The in-memory tracer injects its own fields (not traceparent): the ids of this very span.
        let headers = try #require(transport.sent.first)
        #expect(headers[InMemoryTracer.traceIDKey] == span.traceID)
        #expect(headers[InMemoryTracer.spanIDKey] == span.spanID)
    }

    @Test func theCallersSpanIsTheParent() async throws {
        let client = client()
        let parentID = try await tracer.withSpan("checkout") { parent in
            _ = try await client.perform(Request(URL: url("/items"), method: .get))
            return parent.context.inMemorySpanContext?.spanID
        }
        let child = try #require(tracer.finishedSpans.first { $0.operationName == "GET" })
        #expect(child.parentSpanID == parentID)
    }

    @Test func aRejectedStatusAndAFailureMarkTheSpanAsAnError() async throws {
        let client = client()
        _ = try? await client.perform(Request(URL: url("/status/503"), method: .post))
        _ = try? await client.perform(Request(URL: url("/refuse"), method: .get))
        let spans = tracer.finishedSpans
        try #require(spans.count == 2)
        #expect(spans[0].attributes["http.response.status_code"]?.toSpanAttribute() == 503)
        #expect(spans[0].attributes["error.type"]?.toSpanAttribute() == "503")
        #expect(spans[0].status?.code == .error)
        #expect(spans[1].attributes["error.type"]?.toSpanAttribute() == "cannotConnect")
        #expect(spans[1].attributes["http.response.status_code"] == nil)
        #expect(spans[1].status?.code == .error)
    }

    @Test func eachAttemptIsASpanOfItsOwnAndAResendIsCounted() async throws {
        let client = client([RetryPolicy(maximumAttempts: 3, baseDelay: 0.001)])
        _ = try? await client.perform(Request(URL: url("/status/503"), method: .get))
        let spans = tracer.finishedSpans
        #expect(spans.count == 3)
        #expect(spans.map { $0.attributes["http.request.resend_count"]?.toSpanAttribute() } == [nil, 1, 2])
        #expect(Set(transport.sent.compactMap { $0[InMemoryTracer.spanIDKey] }).count == 3, "a new span id each")
    }

    @Test func credentialsAndSignaturesNeverReachTheSpan() async throws {
        let signed = try #require(
            URL(string: "https://user:secret@files.example.com/f?X-Goog-Signature=abc&sig=def&name=report"))
        _ = try await client().perform(Request(URL: signed, method: .get))
        let full = try #require(tracer.finishedSpans.first?.attributes["url.full"]?.toSpanAttribute())
        #expect(full == "https://files.example.com/f?X-Goog-Signature=REDACTED&sig=REDACTED&name=report")
    }

    @Test func sixtyFourParallelRequestsEachEndTheirOwnSpan() async throws {
        let client = client()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask { _ = try await client.perform(Request(URL: url("/items/\(index)"), method: .get)) }
            }
            try await group.waitForAll()
        }
        #expect(tracer.finishedSpans.count == 64)
        #expect(tracer.activeSpans.isEmpty)
        let urls = Set(tracer.finishedSpans.compactMap { $0.attributes["url.full"].map { "\($0)" } })
        #expect(urls.count == 64)
    }
}
