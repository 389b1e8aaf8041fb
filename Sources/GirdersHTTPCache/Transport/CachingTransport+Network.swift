import Foundation
import GirdersNetworking
import GirdersSupport

/// The network side of ``CachingTransport``: fetching (conditionally when something stored can be validated),
/// storing, the background revalidation of `stale-while-revalidate`, and invalidation after unsafe methods.
extension CachingTransport {
    /// Asks `base`, with validators when `stored` has any; stores what may be stored and delivers the answer (the
    /// stored response merged with a `304`, or standing in for a failed server where `stale-if-error` allows).
    func fetch(
        _ request: WireRequest, key: CacheKey, stored: CachedResponse?, into sink: ResponseSink
    )
        async throws(ResponseError)
    {
        if sink.destination == .stream, stored == nil {
            return try await passStream(request, key: key, into: sink)
        }
        let asked = CacheControl(request.headers)
        let sent = try Self.conditional(request, validating: stored)
        let inner = ResponseSink(sent, collectsMetrics: sink.collectsMetrics)
        let requestTime = clock()
        let response: HTTPResponse
        do {
            defer { if let metrics = inner.metrics { sink.record(metrics) } }  // failed or not
            response = try await base.exchange(sent, in: inner)
        } catch {
            if !error.isCancellation, let stored,
                Self.mayServeOnError(CacheFreshness(stored, now: clock()), asked: asked)
            {
                return try deliver(stored, now: clock(), to: sink, request: request)
            }
            throw error
        }
        let responseTime = clock()
        if let stored, Self.serverErrors.contains(response.statusCode),
            Self.mayServeOnError(CacheFreshness(stored, now: responseTime), asked: asked)
        {
            return try deliver(stored, now: responseTime, to: sink, request: request)
        }
        if response.statusCode == 304, let stored, sent.headers != request.headers {
            let merged = Self.merging(response, into: stored, requestTime: requestTime, responseTime: responseTime)
            keep(merged, for: key, request: request)
            if sink.collectsMetrics {
                // What the transport measured of the 304, if it measures (FoundationNetworking does not).
                var metrics = sink.metrics ?? RequestMetrics(url: request.url)
                metrics.cacheUse = .revalidated
                sink.record(metrics)
            }
            // The 304's own Set-Cookie fields reach the caller's jar (RFC 6265 section 3: a user agent processes
            // them on every response), exactly as received; they are never stored with the response.
            let cookies = inner.setCookieFields.map { HTTPHeader(name: "Set-Cookie", value: $0) }
            return try sink.deliver(
                HTTPResponse(
                    statusCode: merged.statusCode, headers: HTTPHeaders(merged.headers.fields + cookies),
                    body: merged.body, url: request.url, request: request.request, cacheUse: .revalidated))
        }
        keep(response, for: key, request: request, requestTime: requestTime, responseTime: responseTime)
        try sink.deliver(response.with(request: request.request))
    }

    /// A streamed response with nothing stored to validate or stand in: the caller's sink goes to `base` as it is
    /// (the body streams), and a copy of the body, up to ``CachingTransport/maximumStreamedBodyBytes``, is stored
    /// once the response is complete.
    private func passStream(_ request: WireRequest, key: CacheKey, into sink: ResponseSink) async throws(ResponseError)
    {
        let copy = LockedState(StreamCopy())
        sink.observeBody { data in copy.withLock { $0.append(data) } }
        let requestTime = clock()
        try await base.send(request, to: sink)
        guard let status = sink.status, sink.stopReason == nil, let body = copy.withLock({ $0.body }),
            sink.expectedBytes.map({ Int64(body.count) == $0 }) ?? true  // cut short: the client fails it later
        else { return }
        keep(
            HTTPResponse(
                statusCode: status, headers: sink.headers, body: body, url: request.url, request: request.request),
            for: key, request: request, requestTime: requestTime, responseTime: clock())
    }

    /// A bounded copy of a streamed body.
    struct StreamCopy {
        private var data = Data()
        private var overflowed = false

        mutating func append(_ piece: Data) {
            guard !overflowed else { return }
            guard data.count + piece.count <= CachingTransport.maximumStreamedBodyBytes else {
                overflowed = true
                data = Data()
                return
            }
            data.append(piece)
        }

        /// The whole body, or `nil` when it was too large.
        var body: Data? { overflowed ? nil : data }
    }

    /// The server failures `stale-if-error` covers (RFC 5861, section 4).
    static let serverErrors: Set<Int> = [500, 502, 503, 504]

    /// `request` with `If-None-Match` and `If-Modified-Since` from `stored`'s validators (section 4.3.1).
    static func conditional(
        _ request: WireRequest, validating stored: CachedResponse?
    ) throws(ResponseError)
        -> WireRequest
    {
        guard let stored else { return request }
        var sent = request
        if let etag = stored.headers["ETag"] { sent = try sent.settingHeader("If-None-Match", etag) }
        if let modified = stored.headers["Last-Modified"] {
            sent = try sent.settingHeader("If-Modified-Since", modified)
        }
        return sent
    }

    /// The stored response with the `304`'s fields in place of its own (section 4.3.4, by section 3.2: every field
    /// of the 304 but `Content-Length` and those never stored), aged from this exchange.
    static func merging(
        _ notModified: HTTPResponse, into stored: CachedResponse, requestTime: Date, responseTime: Date
    )
        -> CachedResponse
    {
        var headers = stored.headers
        for field in CachedResponse.storable(notModified.headers).fields
        where field.name.lowercased() != "content-length" {
            headers[field.name] = field.value
        }
        return CachedResponse(
            statusCode: stored.statusCode, headers: headers, body: stored.body, url: stored.url,
            requestTime: requestTime, responseTime: responseTime, varying: stored.varying)
    }

    /// Stores a response from the network when section 3 allows it; otherwise forgets what it replaces.
    private func keep(
        _ response: HTTPResponse, for key: CacheKey, request: WireRequest, requestTime: Date, responseTime: Date
    ) {
        guard
            CacheStorability.problem(
                method: request.method, requestHeaders: request.headers, statusCode: response.statusCode,
                headers: response.headers) == nil,
            let names = CacheStorability.varyingNames(response.headers)
        else { return store.removeResponse(for: key) }
        store.store(
            CachedResponse(
                statusCode: response.statusCode, headers: CachedResponse.storable(response.headers),
                body: response.body, url: request.url, requestTime: requestTime, responseTime: responseTime,
                varying: CacheStorability.varying(names, in: request.headers)),
            for: key)
    }

    private func keep(_ merged: CachedResponse, for key: CacheKey, request: WireRequest) {
        if CacheControl(request.headers).noStore || CacheControl(merged.headers).noStore {
            return store.removeResponse(for: key)
        }
        store.store(merged, for: key)
    }

    /// Serves nothing, but refreshes the stored response: the background half of `stale-while-revalidate`. Errors
    /// are dropped (the next request asks again); one revalidation per key runs at a time.
    func revalidateInBackground(_ request: WireRequest, key: CacheKey, stored: CachedResponse) {
        guard beginRevalidation(key) else { return }
        Task.detached { [self] in
            defer { endRevalidation(key) }
            do throws(ResponseError) {
                let sent = try Self.conditional(request, validating: stored)
                let requestTime = clock()
                let response = try await base.exchange(sent, in: ResponseSink(sent))
                let responseTime = clock()
                if response.statusCode == 304 {
                    keep(
                        Self.merging(response, into: stored, requestTime: requestTime, responseTime: responseTime),
                        for: key, request: request)
                } else if !Self.serverErrors.contains(response.statusCode) {
                    keep(response, for: key, request: request, requestTime: requestTime, responseTime: responseTime)
                }
            } catch {
                return
            }
        }
    }

    /// Section 4.4: after an unsafe method's non-error response, the stored responses of its URL, and of the URLs
    /// in `Location` and `Content-Location` when they share its origin, are forgotten.
    func invalidateAfter(_ request: WireRequest, status: Int?, headers: HTTPHeaders) {
        guard !Self.safeMethods.contains(request.method), let status, (200..<400).contains(status) else { return }
        store.removeResponses(for: CacheKey(request).url)
        for name in ["Location", "Content-Location"] {
            guard let value = headers[name], let target = URL(string: value, relativeTo: request.url)?.absoluteURL,
                Self.sameOrigin(target, request.url)
            else { continue }
            var url = target.absoluteString
            if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
            store.removeResponses(for: url)
        }
    }

    /// The methods RFC 9110 (section 9.2.1) defines as safe.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    static func sameOrigin(_ one: URL, _ other: URL) -> Bool {
        one.scheme?.lowercased() == other.scheme?.lowercased() && one.host?.lowercased() == other.host?.lowercased()
            && one.port == other.port
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
