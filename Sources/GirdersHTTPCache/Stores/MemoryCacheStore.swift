import GirdersNetworking
import GirdersSupport

/// An ``HTTPCacheStore`` in memory: bounded by entries and body bytes, the least recently used evicted first.
/// Gone when the process ends. Safe to share between transports.
public final class MemoryCacheStore: HTTPCacheStore {
    private struct Entry {
        let response: CachedResponse
        var lastUse: UInt64
    }

    private struct State {
        var entries: [CacheKey: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most responses kept.
    public let maximumEntries: Int
    /// The most body bytes kept in all; a larger single body is not stored.
    public let maximumBytes: Int
    private let state = LockedState(State())

    /// A store of at most `maximumEntries` responses and `maximumBytes` body bytes.
    public init(maximumEntries: Int = 500, maximumBytes: Int = 10 << 20) {
        self.maximumEntries = max(0, maximumEntries)
        self.maximumBytes = max(0, maximumBytes)
    }

    /// The number of stored responses.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The response stored for `key` (marked as just used), or `nil`.
    public func response(for key: CacheKey) -> CachedResponse? {
        state.withLock { state in
            guard state.entries[key] != nil else { return nil }
            state.clock += 1
            state.entries[key]?.lastUse = state.clock
            return state.entries[key]?.response
        }
    }

    /// Stores `response` for `key`, then evicts the least recently used while a bound is passed.
    public func store(_ response: CachedResponse, for key: CacheKey) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.response.body.count }
            guard response.body.count <= maximumBytes, maximumEntries > 0 else { return }
            state.clock += 1
            state.entries[key] = Entry(response: response, lastUse: state.clock)
            state.bytes += response.body.count
            while state.entries.count > maximumEntries || state.bytes > maximumBytes {
                guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.response.body.count
            }
        }
    }

    /// Forgets the response stored for `key`.
    public func removeResponse(for key: CacheKey) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.response.body.count }
        }
    }

    /// Forgets the responses stored for `url`, under every partition.
    public func removeResponses(for url: String) {
        state.withLock { state in
            for key in state.entries.keys where key.url == url {
                if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.response.body.count }
            }
        }
    }

    /// Forgets every response.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
