import Foundation

/// Sends one lowered request and delivers the response to a sink: the seam where another HTTP stack (or a test
/// double) plugs in.
///
/// A transport only moves bytes. ``HTTPClient`` lowers each attempt into a ``WireRequest`` (checked, defaulted,
/// its `URLRequest` edits applied) and makes the ``ResponseSink`` that holds the response to its limits, keeps its
/// body in memory, a download file or a stream, and reports progress. The transport puts the request on the wire
/// and hands the sink the head and the body as they arrive; it does not follow redirects, validate statuses, keep
/// cookies (the client's ``HTTPClient/cookieJar`` does) or decode bodies. It throws ``ResponseSink/stopReason`` when a sink call stopped the response, maps its own
/// failures to ``ResponseError`` transport cases, and stops with ``ResponseError/cancelled(url:)`` when the calling
/// Swift `Task` is cancelled.
///
/// A transport that has whole responses (a stub, another client library) delivers them at once:
///
/// ```swift
/// struct Canned: HTTPTransport {
///     func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
///         try sink.deliver(
///             HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data("hi".utf8),
///                          url: request.url, request: request.request))
///     }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends `request` once and delivers the response (3xx included) to `sink` as it arrives; returns when the
    /// response is complete.
    func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError)

    /// Whether this transport reads the ``RequestMetrics`` of the sinks it is given (a decorator that records
    /// timings): ``HTTPClient`` then has every exchange measured (``ResponseSink/collectsMetrics``), as it does
    /// when it has ``EventMonitor``s. `false` (the default) otherwise; a decorator passes on the answer of the
    /// transport it wraps when it reads none itself.
    var readsMetrics: Bool { get }
}

extension HTTPTransport {
    /// Reads no metrics.
    public var readsMetrics: Bool { false }
}

extension HTTPTransport {
    /// Sends `request` once, lowered with ``ResponseLimits/standard`` and its body kept in memory, outside any
    /// client: for tools and tests that talk to a transport directly. Redirects are returned, not followed.
    public func send(_ request: Request) async throws(ResponseError) -> HTTPResponse {
        let wire = try WireRequest(lowering: request)
        return try await exchange(wire, in: ResponseSink(wire))
    }

    /// Runs one exchange into `sink` and returns its response: the transport's `send`, then the sink's end checks
    /// (``ResponseSink/finish()``); a failure (the sink's own reason first) deletes a partial download. What a
    /// decorator calls on the transport it wraps.
    public func exchange(_ wire: WireRequest, in sink: ResponseSink) async throws(ResponseError) -> HTTPResponse {
        do {
            try await send(wire, to: sink)
        } catch {
            throw sink.fail(error)
        }
        try sink.finish()
        return sink.response()
    }
}
