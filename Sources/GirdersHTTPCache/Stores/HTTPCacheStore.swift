import GirdersNetworking

/// Where ``CachingTransport`` keeps responses: one per ``CacheKey`` (the most recent variant, RFC 9111 section 4.1
/// allows it).
///
/// A store decides what it keeps: it may drop any entry at any time (bounded size, eviction, a damaged file), and
/// a lookup that finds nothing is a miss, never an error. Calls come from any task and must be safe together.
/// Girders ships ``MemoryCacheStore``; an app's own (encrypted, shared with an extension) conforms the same way.
public protocol HTTPCacheStore: Sendable {
    /// The response stored for `key`, or `nil`.
    func response(for key: CacheKey) -> CachedResponse?
    /// Stores `response` for `key`, replacing what was there (or keeps nothing, when the store chooses so).
    func store(_ response: CachedResponse, for key: CacheKey)
    /// Forgets the response stored for `key`.
    func removeResponse(for key: CacheKey)
    /// Forgets the responses stored for `url`, under every partition (an unsafe method's invalidation, RFC 9111
    /// section 4.4).
    func removeResponses(for url: String)
    /// Forgets every response.
    func removeAll()
}

/// What a stored response is filed under: the request's URL and its partition, the credentials it was sent with,
/// so a private cache never answers one user with another's data.
public struct CacheKey: Sendable, Hashable {
    /// The full URL, without a fragment.
    public let url: String
    /// The request's `Authorization` and `Cookie` values, joined ("" without either).
    public let partition: String

    /// The key for `url` and `partition`.
    public init(url: String, partition: String) {
        self.url = url
        self.partition = partition
    }

    /// The key of a request: its URL without a fragment, and its credentials.
    init(_ request: WireRequest) {
        var url = request.url.absoluteString
        if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
        self.url = url
        let credentials = [request.headers["Authorization"], request.headers["Cookie"]]
        partition = credentials.map { $0 ?? "" }.joined(separator: "\u{0}")
    }
}
