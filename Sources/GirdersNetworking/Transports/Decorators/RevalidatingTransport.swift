import Foundation
import GirdersSupport

/// An ``HTTPTransport`` that revalidates `GET` responses (opt-in): it stores responses that carry an `ETag` or
/// `Last-Modified`, sends `If-None-Match` / `If-Modified-Since` the next time, and answers a `304 Not Modified`
/// with the stored response (its headers updated from the 304).
///
/// ```swift
/// let client = HTTPClient(transport: RevalidatingTransport(URLSessionTransport()))
/// ```
///
/// FoundationNetworking's URLCache stores nothing on Linux, so Girders does this itself, the same way on every
/// platform. Not stored: `Cache-Control: no-store`, `Vary: *`, non-200 responses, downloads. A request that
/// already carries a conditional header is passed through untouched, and a 304 to it is returned as it is.
@available(
    *, deprecated,
    message:
        "use CachingTransport(base, defaultPolicy: .revalidate): RFC 9111 rules, a store on disk, the same revalidation"
)
public final class RevalidatingTransport: HTTPTransport {
    /// The transport that does the sending.
    public let base: any HTTPTransport

    /// The jar of ``base``.
    public var cookieJar: (any CookieJar)? { base.cookieJar }
    /// Whether the transport it wraps reads metrics.
    public var readsMetrics: Bool { base.readsMetrics }
    /// Where responses are kept.
    public let cache: ResponseCache

    /// Revalidates requests sent through `base` against `cache`.
    public init(_ base: any HTTPTransport, cache: ResponseCache = ResponseCache()) {
        self.base = base
        self.cache = cache
    }

    /// Sends `request`, conditionally when a stored response can be revalidated, and delivers the stored response
    /// to `sink` when the server says it has not changed. Downloads and streamed bodies go straight to ``base``.
    public func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        guard request.method == "GET", sink.destination == .memory, request.headers["If-None-Match"] == nil,
            request.headers["If-Modified-Since"] == nil
        else { return try await base.send(request, to: sink) }
        let original = request.request
        let stored = cache.entry(for: original)?.response
        var conditional = request
        if let etag = stored?.headers["ETag"] { conditional = try conditional.settingHeader("If-None-Match", etag) }
        if let modified = stored?.headers["Last-Modified"] {
            conditional = try conditional.settingHeader("If-Modified-Since", modified)
        }
        let inner = ResponseSink(conditional, collectsMetrics: sink.collectsMetrics)
        let response: HTTPResponse
        do {
            defer { if let metrics = inner.metrics { sink.record(metrics) } }  // failed or not
            response = try await base.exchange(conditional, in: inner)
        }
        if response.statusCode == 304, let stored {
            let refreshed = Self.merging(response, into: stored, request: original)
            store(refreshed, for: original)
            return try sink.deliver(refreshed)
        }
        if response.statusCode == 200 {
            store(response.with(request: original), for: original)
        }
        try sink.deliver(response)
    }

    private func store(_ response: HTTPResponse, for request: Request) {
        let cacheControl = (response.headers["Cache-Control"] ?? "").lowercased()
        let vary = (response.headers["Vary"] ?? "").split(atScalar: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard response.headers["ETag"] != nil || response.headers["Last-Modified"] != nil,
            !cacheControl.contains("no-store"), !vary.contains("*")
        else { return cache.remove(request) }
        var varying: [String: String] = [:]
        for name in vary where !name.isEmpty { varying[name] = request.headers[name] ?? "" }
        cache.store(response, for: request, varying: varying)
    }

    /// The stored response with the 304's header fields replacing its own (RFC 9111, section 4.3.4).
    static func merging(_ notModified: HTTPResponse, into stored: HTTPResponse, request: Request) -> HTTPResponse {
        var headers = stored.headers
        for field in notModified.headers where field.name.lowercased() != "content-length" {
            headers[field.name] = field.value
        }
        return HTTPResponse(
            statusCode: stored.statusCode, headers: headers, body: stored.body, url: notModified.url ?? stored.url,
            request: request)
    }
}

extension HTTPResponse {
    /// The same response attributed to `request` (the one the caller sent, without added conditional headers).
    func with(request: Request) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode, headers: headers, body: body, url: url, request: request, fileURL: fileURL,
            cacheUse: cacheUse)
    }
}
