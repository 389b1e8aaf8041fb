import Foundation
import GirdersSupport

/// The responses ``RevalidatingTransport`` keeps for revalidation: in memory, bounded by count and bytes, oldest
/// use evicted first. Safe to share between clients.
@available(*, deprecated, message: "use CachingTransport with a MemoryCacheStore or a FileCacheStore")
public final class ResponseCache: Sendable {
    struct Entry: Sendable {
        let response: HTTPResponse
        /// The request's values of the header fields named by `Vary`.
        let varying: [String: String]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most responses kept.
    public let maximumEntries: Int
    /// The most body bytes kept in all; a larger single body is not stored.
    public let maximumBytes: Int
    private let state = LockedState(State())

    /// A cache of at most `maximumEntries` responses and `maximumBytes` body bytes.
    public init(maximumEntries: Int = 500, maximumBytes: Int = 10 << 20) {
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    /// The number of stored responses.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every stored response.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// The key: the full URL and the credential (a private cache must not answer one user with another's data).
    static func key(_ request: Request) -> String {
        request.fullURL.absoluteString + "\u{0}" + (request.headers["Authorization"] ?? "")
    }

    func entry(for request: Request) -> Entry? {
        state.withLock { state in
            let key = Self.key(request)
            guard var entry = state.entries[key] else { return nil }
            guard entry.varying.allSatisfy({ request.headers[$0.key] ?? "" == $0.value }) else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry
        }
    }

    func store(_ response: HTTPResponse, for request: Request, varying: [String: String]) {
        guard response.body.count <= maximumBytes else { return remove(request) }
        state.withLock { state in
            let key = Self.key(request)
            state.clock += 1
            if let old = state.entries[key] { state.bytes -= old.response.body.count }
            state.entries[key] = Entry(response: response, varying: varying, lastUse: state.clock)
            state.bytes += response.body.count
            while state.entries.count > maximumEntries || state.bytes > maximumBytes {
                guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.response.body.count
            }
        }
    }

    func remove(_ request: Request) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: Self.key(request)) { state.bytes -= old.response.body.count }
        }
    }
}
