import Foundation
public import GirdersNetworking
import GirdersSupport

/// An `HTTPTransport` that is a private HTTP cache by RFC 9111, on top of another transport: the same rules on
/// every transport and platform (URLSessionTransport's own `URLCache` is off).
///
/// ```swift
/// let client = HTTPClient(transport: CachingTransport(CurlTransport(), store: MemoryCacheStore()))
/// let feed = try await client.perform(Request(MutableRequest(url: feedURL) |> withCachePolicy(.cacheElseNetwork)))
/// if case .stored(let age, _) = feed.cacheUse { print("from the cache, \(age) s old") }
/// ```
///
/// What it does, for `GET` responses kept in memory or streamed (downloads pass through untouched; a streamed body
/// is stored when it is at most ``maximumStreamedBodyBytes``):
/// - **Stores** what section 3 allows: not `no-store` (request or response), not `Vary: *`, a status that is
///   cacheable by default or an explicit freshness; `private` responses too (this is a private cache). Filed by
///   URL and by the request's `Authorization` and `Cookie` values, so one user is never answered with another's
///   data. `Set-Cookie` and hop-by-hop fields are not stored.
/// - **Serves** a stored response while fresh (section 4.2: `max-age`, `Expires`, `Date`, `Age`, a heuristic of
///   10% of the time since `Last-Modified`, at most a day, where section 4.2.2 allows one), obeying the request's
///   `no-cache`, `max-age`, `max-stale`, `min-fresh` and `only-if-cached`, and the response's `no-cache` and
///   `must-revalidate`. A served response carries its age in `Age` and in `HTTPResponse/cacheUse`.
/// - **Revalidates** a stale one with `If-None-Match` / `If-Modified-Since`; a `304` refreshes the stored fields
///   (section 4.3.4). `stale-while-revalidate` serves the stale response and revalidates in the background;
///   `stale-if-error` serves it when the server fails (a transport error or a 500, 502, 503 or 504; RFC 5861).
/// - **Invalidates** the stored responses of a URL after an unsafe method's success, and of its `Location` and
///   `Content-Location` on the same origin (section 4.4).
/// - Obeys each request's `CachePolicy` (`withCachePolicy(_:)`); a request with conditional fields of its own
///   passes through untouched.
public final class CachingTransport: HTTPTransport {
    /// The transport that does the sending.
    public let base: any HTTPTransport
    /// Where responses are kept.
    public let store: any HTTPCacheStore
    /// The policy of a request that names none.
    public let defaultPolicy: CachePolicy
    /// Whether the transport it wraps reads metrics.
    public var readsMetrics: Bool { base.readsMetrics }

    /// The current time (a test's clock in tests).
    let clock: @Sendable () -> Date
    /// The keys being revalidated in the background now (one revalidation per key at a time).
    private let revalidating = LockedState<Set<CacheKey>>([])

    /// A cache over `base`, keeping responses in `store` (by default on disk: ``defaultStore()``).
    public convenience init(
        _ base: any HTTPTransport, store: any HTTPCacheStore = CachingTransport.defaultStore(),
        defaultPolicy: CachePolicy = .useProtocol
    ) {
        self.init(base, store: store, defaultPolicy: defaultPolicy, clock: { Date() })
    }

    init(
        _ base: any HTTPTransport, store: any HTTPCacheStore, defaultPolicy: CachePolicy,
        clock: @escaping @Sendable () -> Date
    ) {
        self.base = base
        self.store = store
        self.defaultPolicy = defaultPolicy
        self.clock = clock
    }

    /// The store of a cache that names none: a ``FileCacheStore`` in ``FileCacheStore/defaultFolder`` with its
    /// default bounds (64 MiB, 2,000 responses), shared safely by every process of the app; a ``MemoryCacheStore``
    /// when that folder cannot be made (a read-only home, a sandbox without a caches folder), so the app still has
    /// a cache for its life.
    public static func defaultStore() -> any HTTPCacheStore {
        store(in: FileCacheStore.defaultFolder)
    }

    /// A ``FileCacheStore`` in `folder`, or a ``MemoryCacheStore`` when it cannot be made.
    static func store(in folder: URL) -> any HTTPCacheStore {
        (try? FileCacheStore(folder: folder)) ?? MemoryCacheStore()
    }

    /// The largest streamed body stored (a streamed response is watched on its way to the caller and stored once it
    /// is complete): 4 MiB. A larger one passes through and is not stored.
    public static let maximumStreamedBodyBytes = 4 << 20

    /// The number of background revalidations in flight now (for tests that wait for one to end).
    var revalidationsInFlight: Int { revalidating.withLock { $0.count } }

    /// Answers `request` from the store, the network or both, as its policy and RFC 9111 say.
    public func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        guard request.method == "GET" else {
            try await base.send(request, to: sink)
            invalidateAfter(request, status: sink.status, headers: sink.headers)
            return
        }
        guard sink.destination == .memory || sink.destination == .stream, !Self.isConditional(request.headers) else {
            return try await base.send(request, to: sink)
        }
        let key = CacheKey(request)
        let policy = request.request.cachePolicy ?? defaultPolicy
        let stored = policy == .reload ? nil : matchingResponse(for: key, request: request)
        let now = clock()
        switch policy {
        case .cacheOnly:
            guard let stored else { return try deliverNotStored(request, to: sink, reason: "the policy is cacheOnly") }
            try deliver(stored, now: now, to: sink, request: request)
        case .cacheElseNetwork:
            if let stored { return try deliver(stored, now: now, to: sink, request: request) }
            try await fetch(request, key: key, stored: nil, into: sink)
        case .reload:
            try await fetch(request, key: key, stored: nil, into: sink)
        case .revalidate:
            try await fetch(request, key: key, stored: stored, into: sink)
        case .useProtocol:
            try await answerByProtocol(request, key: key, stored: stored, now: now, into: sink)
        }
    }

    /// Section 4: a fresh (or acceptably stale) stored response, else the network, validating what is stored.
    private func answerByProtocol(
        _ request: WireRequest, key: CacheKey, stored: CachedResponse?, now: Date, into sink: ResponseSink
    ) async throws(ResponseError) {
        let asked = CacheControl(request.headers)
        if let stored {
            let freshness = CacheFreshness(stored, now: now)
            if Self.mayServe(freshness, asked: asked) {
                return try deliver(stored, now: now, to: sink, request: request)
            }
            if !asked.onlyIfCached, Self.mayServeWhileRevalidating(freshness, asked: asked) {
                try deliver(stored, now: now, to: sink, request: request)
                revalidateInBackground(request, key: key, stored: stored)
                return
            }
        }
        if asked.onlyIfCached {
            return try deliverNotStored(request, to: sink, reason: "the request says only-if-cached")
        }
        try await fetch(request, key: key, stored: stored, into: sink)
    }

    /// The response stored for `key` if the request matches the fields its `Vary` names (section 4.1).
    private func matchingResponse(for key: CacheKey, request: WireRequest) -> CachedResponse? {
        guard let stored = store.response(for: key) else { return nil }
        let names = Array(stored.varying.keys)
        return CacheStorability.varying(names, in: request.headers) == stored.varying ? stored : nil
    }

    /// Whether a stored response may be served without asking the server (sections 4.2 and 5.2.1).
    static func mayServe(_ freshness: CacheFreshness, asked: CacheControl) -> Bool {
        if freshness.directives.noCache || asked.noCache { return false }
        if let maxAge = asked.maxAge, freshness.age > Double(maxAge) { return false }
        if let minFresh = asked.minFresh {
            return freshness.age + Double(minFresh) < freshness.lifetime
        }
        if freshness.isFresh { return true }
        guard !freshness.directives.mustRevalidate, let maxStale = asked.maxStale else { return false }
        return maxStale.map { freshness.staleness <= Double($0) } ?? true
    }

    /// Whether a stale response may be served while it is revalidated (RFC 5861, section 3).
    static func mayServeWhileRevalidating(_ freshness: CacheFreshness, asked: CacheControl) -> Bool {
        guard let window = freshness.directives.staleWhileRevalidate, !freshness.directives.noCache,
            !freshness.directives.mustRevalidate, !asked.noCache, asked.maxAge == nil, asked.minFresh == nil
        else { return false }
        return freshness.staleness <= Double(window)
    }

    /// Whether a stale response may stand in for a failed server (RFC 5861, section 4): the response's or the
    /// request's `stale-if-error` window, never with `no-cache` or `must-revalidate`.
    static func mayServeOnError(_ freshness: CacheFreshness, asked: CacheControl) -> Bool {
        guard !freshness.directives.noCache, !freshness.directives.mustRevalidate, !asked.noCache,
            let window = asked.staleIfError ?? freshness.directives.staleIfError
        else { return false }
        return freshness.staleness <= Double(window)
    }

    /// Whether the request carries validators of its own (then the app revalidates, not the cache).
    static func isConditional(_ headers: HTTPHeaders) -> Bool {
        ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"].contains {
            headers.contains($0)
        }
    }

    /// `stored` to `sink`, with its age in `Age` and in `HTTPResponse/cacheUse`.
    func deliver(_ stored: CachedResponse, now: Date, to sink: ResponseSink, request: WireRequest) throws(ResponseError)
    {
        let freshness = CacheFreshness(stored, now: now)
        let age = Int(min(Double(CacheControl.greatestDeltaSeconds), freshness.age.rounded(.down)))
        var headers = stored.headers
        headers["Age"] = String(age)
        let use = CacheUse.stored(age: age, isStale: !freshness.isFresh)
        if sink.collectsMetrics {
            var metrics = RequestMetrics(url: request.url)
            metrics.cacheUse = use
            sink.record(metrics)
        }
        try sink.deliver(
            HTTPResponse(
                statusCode: stored.statusCode, headers: headers, body: stored.body, url: request.url,
                request: request.request, cacheUse: use))
    }

    /// The `504 Gateway Timeout` of a request the store cannot answer and the network may not (section 5.2.1.7).
    private func deliverNotStored(_ request: WireRequest, to sink: ResponseSink, reason: String) throws(ResponseError) {
        try sink.deliver(
            HTTPResponse(
                statusCode: 504, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Data("no stored response for \(request.url.absoluteString) (\(reason))".utf8), url: request.url,
                request: request.request, cacheUse: .notStored))
    }

    /// Marks `key` as revalidating; `false` when it already is.
    func beginRevalidation(_ key: CacheKey) -> Bool {
        revalidating.withLock { $0.insert(key).inserted }
    }

    func endRevalidation(_ key: CacheKey) {
        _ = revalidating.withLock { $0.remove(key) }
    }
}
