import Foundation
import GirdersNetworking
import InMemoryTracing
import Testing
import Tracing
import W3CTraceContext

@testable import GirdersTracing

/// ``TracingInterceptor`` with a tracer whose instrument propagates W3C Trace Context, as an OpenTelemetry tracer
/// does: the `traceparent` field on the wire is the one the instrument wrote, read back here with
/// swift-w3c-trace-context's own parser.
struct W3CPropagationTests {
    /// swift-distributed-tracing's in-memory tracer with W3C-shaped ids (32 and 16 hexadecimal digits), whose
    /// instrument writes and reads `traceparent` instead of the in-memory tracer's own fields.
    struct W3CTracer: Tracer {
        static let traceParent = "traceparent"
        let spans = InMemoryTracer(
            idGenerator: .init(
                nextTraceID: { TraceID.random().description }, nextSpanID: { SpanID.random().description }))

        func startSpan<Instant: TracerInstant>(
            _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
            at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
        ) -> InMemorySpan {
            spans.startSpan(
                operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID,
                line: line)
        }

        func forceFlush() { spans.forceFlush() }

        func inject<Carrier, Inject: Injector>(
            _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
        ) where Carrier == Inject.Carrier {
            guard let span = context.inMemorySpanContext,
                let parsed = try? TraceContext(traceParentHeaderValue: "00-\(span.traceID)-\(span.spanID)-01")
            else { return }
            injector.inject(parsed.traceParentHeaderValue, forKey: Self.traceParent, into: &carrier)
        }

        func extract<Carrier, Extract: Extractor>(
            _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
        ) where Carrier == Extract.Carrier {
            guard let value = extractor.extract(key: Self.traceParent, from: carrier),
                let parsed = try? TraceContext(traceParentHeaderValue: value)
            else { return }
            context.inMemorySpanContext = InMemorySpanContext(
                traceID: parsed.traceID.description, spanID: parsed.spanID.description, parentSpanID: nil)
        }
    }

    let tracer = W3CTracer()
    let transport = TracingInterceptorTests.CapturingTransport()

    func client(_ interceptors: [any RequestInterceptor] = []) -> HTTPClient {
        HTTPClient(transport: transport, interceptors: interceptors + [TracingInterceptor(tracer: tracer)])
    }

    let url = URL(string: "https://api.example.com/items") ?? URL(fileURLWithPath: "/")

    @Test func theRequestCarriesATraceparentNamingItsSpanInTheCallersTrace() async throws {
        let client = client()
        let parent = try await tracer.withSpan("checkout") { parent in
            _ = try await client.perform(Request(URL: url, method: .get))
            return try #require(parent.context.inMemorySpanContext)
        }
        let span = try #require(tracer.spans.finishedSpans.first { $0.operationName == "GET" })
        let headers = try #require(transport.sent.first)
        let sent = try TraceContext(traceParentHeaderValue: try #require(headers[W3CTracer.traceParent]))
        #expect(sent.traceID.description == parent.traceID)
        #expect(sent.spanID.description == span.spanID)
        #expect(span.parentSpanID == parent.spanID)
        #expect(sent.flags.contains(.sampled))
        // Only the instrument's fields go out: none of the in-memory tracer's own.
        #expect(headers[InMemoryTracer.traceIDKey] == nil && headers[InMemoryTracer.spanIDKey] == nil)
    }

    @Test func aServerExtractingTheFieldFindsTheAttemptsSpanForEachResend() async throws {
        let client = client([RetryPolicy(maximumAttempts: 3, baseDelay: 0.001)])
        let trace = await tracer.withSpan("sync") { parent in
            _ = try? await client.perform(
                Request(URL: URL(string: "https://api.example.com/status/503") ?? url, method: .get))
            return parent.context.inMemorySpanContext?.traceID
        }
        let spans = tracer.spans.finishedSpans.filter { $0.operationName == "GET" }
        try #require(spans.count == 3)
        // What a server would make of each attempt's header fields: the attempt's own span, one trace for all.
        let extracted = transport.sent.map { headers -> InMemorySpanContext? in
            var context = ServiceContext.topLevel
            tracer.extract(headers, into: &context, using: FieldsExtractor())
            return context.inMemorySpanContext
        }
        #expect(extracted.map { $0?.spanID } == spans.map(\.spanID))
        #expect(extracted.allSatisfy { $0 != nil && $0?.traceID == trace }, "\(extracted)")
    }

    /// Reads a field from the header fields a request went out with.
    struct FieldsExtractor: Extractor {
        func extract(key: String, from carrier: HTTPHeaders) -> String? { carrier[key] }
    }
}
