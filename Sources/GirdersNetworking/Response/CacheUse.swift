/// How `CachingTransport` answered: ``HTTPResponse/cacheUse`` is `nil` for a response that came from the
/// network without a stored one taking part.
public enum CacheUse: Sendable, Equatable {
    /// From the store without asking the server. `age` is the response's age in seconds (RFC 9111, section
    /// 4.2.3, also sent as its `Age` field); `isStale` when it is past its freshness lifetime (served because the
    /// request's policy or `max-stale`, `stale-while-revalidate` or `stale-if-error` allowed it).
    case stored(age: Int, isStale: Bool)
    /// The server said the stored response is still good (`304 Not Modified`): the stored body with the 304's
    /// fields merged in (section 4.3.4).
    case revalidated
    /// Nothing stored, and the request's policy (``CachePolicy/cacheOnly``) or `only-if-cached` forbade the network:
    /// the cache answered `504 Gateway Timeout` itself (RFC 9111, section 5.2.1.7). Never retried by ``RetryPolicy``.
    case notStored
}
