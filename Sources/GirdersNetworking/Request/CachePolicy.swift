/// How `CachingTransport` uses its store for one request: URLSession's policies, by their meaning.
///
/// Set per request with ``withCachePolicy(_:)``; a request without one uses the transport's
/// `CachingTransport/defaultPolicy` (``useProtocol`` unless the app chose otherwise).
public enum CachePolicy: Sendable, Equatable {
    /// RFC 9111: a fresh stored response is served, a stale one revalidated, the request's own `Cache-Control`
    /// (`no-cache`, `max-age`, `max-stale`, `min-fresh`, `only-if-cached`) obeyed.
    case useProtocol
    /// Ask the server without conditions, ignoring what is stored; the answer is stored as usual.
    /// (URLSession's `reloadIgnoringLocalCacheData`.)
    case reload
    /// Ask the server, conditionally when something is stored that can be validated (`If-None-Match`,
    /// `If-Modified-Since`): a `304` is answered with the stored body, its fields refreshed. What
    /// GirdersHTTPCache's `cachedThenFresh(_:)` asks second. (URLSession's `reloadRevalidatingCacheData`, which it never
    /// implemented.)
    case revalidate
    /// A stored response of any age, without asking the server; the network only when none is stored.
    /// (`returnCacheDataElseLoad`.)
    case cacheElseNetwork
    /// A stored response of any age, never the network: offline. Nothing stored is a `504 Gateway Timeout` as RFC
    /// 9111's `only-if-cached` says (``ResponseError/gatewayTimeout(_:)`` from ``HTTPClient``).
    /// (`returnCacheDataDontLoad`.)
    case cacheOnly
}

/// Sets how `CachingTransport` uses its store for this request (see ``CachePolicy``); without a caching transport
/// the policy has no effect.
///
/// ```swift
/// let offline = Request(MutableRequest(url: feedURL) |> withCachePolicy(.cacheOnly))
/// ```
public func withCachePolicy(_ policy: CachePolicy) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.cachePolicy = policy
        return request
    }
}
