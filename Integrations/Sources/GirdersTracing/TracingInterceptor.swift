import Foundation
public import GirdersNetworking
public import Tracing

/// An interceptor that traces every attempt of every request as a swift-distributed-tracing client span, with
/// OpenTelemetry's HTTP client attributes, and propagates the span's context in the request's header fields
/// through the tracer's own instrument (whatever fields it writes: W3C `traceparent` for a W3C propagator).
///
/// - One span per attempt, named after the method (`GET`), a child of the caller's current context; a resend has
///   `http.request.resend_count`.
/// - Attributes: `http.request.method`, `url.full` (without user name or password, and with the values of
///   signature parameters in the query redacted: `AWSAccessKeyId`, `Signature`, `sig`, `X-Goog-Signature`),
///   `server.address`, `server.port`, `http.response.status_code`, and on failure `error.type` (the status, or
///   the ``ResponseErrorKind``) with the span's status set to error.
/// - The span ends when the attempt ends (for a stream, when its head was validated).
///
/// Put it last among the interceptors, so the span covers the request as it is sent:
/// ```swift
/// let client = HTTPClient(interceptors: [authentication, TracingInterceptor()])
/// ```
public struct TracingInterceptor: RequestInterceptor {
    private let tracer: any Tracer
    private let spans = SpanTable()

    /// An interceptor starting spans with `tracer` (the one `InstrumentationSystem` was bootstrapped with, by
    /// default).
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// Starts the attempt's span and writes its context into the request's header fields.
    public func adapt(_ request: Request, context: InterceptorContext) async throws -> Request {
        let span = Self.start(tracer, request.method.rawValue)
        span.attributes = HTTPSpanAttributes.request(request, attempt: context.attempt)
        var carrier = HeaderCarrier()
        tracer.inject(span.context, into: &carrier, using: HeaderCarrier.Writer())
        spans.insert(span, for: context)
        var traced = request
        for (name, value) in carrier.fields { traced = traced.settingHeader(name, value) }
        return traced
    }

    /// Ends the attempt's span with the response's status or the error.
    public func attemptDidFinish(
        _ request: Request, result: Result<HTTPResponse, ResponseError>, context: InterceptorContext
    ) {
        guard let span = spans.remove(for: context) else { return }
        HTTPSpanAttributes.finish(span, with: result)
        span.end()
    }

    /// `tracer`'s span, with the caller's context as its parent: the existential opened, since `Tracer` starts
    /// spans of its own type.
    private static func start<T: Tracer>(_ tracer: T, _ name: String) -> any Span {
        tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel, ofKind: .client)
    }
}
