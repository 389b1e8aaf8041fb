import Foundation
import GirdersSupport

/// Which of a ``URLSessionTransport``'s sessions a request runs on.
///
/// TLS is negotiated once per connection (a kept-alive or HTTP/2 connection keeps its first answer to the
/// server's trust and client-certificate challenges), so requests with different ``TLSCredentials`` must not
/// share a session: each distinct set gets one of its own.
struct ChannelKey: Hashable, Sendable {
    /// The credentials every connection of the session presents.
    var credentials: TLSCredentials?

    init(for request: Request) {
        credentials = request.tlsCredentials
    }

    /// The transport's own session: no credentials.
    var isDefault: Bool { credentials == nil }
}

/// A transport's extra sessions by ``ChannelKey``, each made on first use. At most `limit` are kept: making one
/// more retires the least recently used (its tasks finish; it takes no new ones).
final class ChannelTable<Channel>: Sendable {
    private struct State {
        var channels: [ChannelKey: Channel] = [:]
        var recency: [ChannelKey] = []
    }

    private let state = LockedState(State())
    private let limit: Int
    private let retire: @Sendable (Channel) -> Void

    init(limit: Int, retire: @escaping @Sendable (Channel) -> Void) {
        self.limit = max(1, limit)
        self.retire = retire
    }

    /// The channel for `key`, made by `make` the first time.
    func channel(for key: ChannelKey, make: () -> Channel) -> Channel {
        let (channel, retired): (Channel, Channel?) = state.withLock { state in
            if let known = state.channels[key] {
                if let index = state.recency.firstIndex(of: key) { state.recency.remove(at: index) }
                state.recency.append(key)
                return (known, nil)
            }
            let made = make()
            state.channels[key] = made
            state.recency.append(key)
            guard state.recency.count > limit else { return (made, nil) }
            let oldest = state.recency.removeFirst()
            return (made, state.channels.removeValue(forKey: oldest))
        }
        if let retired { retire(retired) }
        return channel
    }

    /// Every channel kept now (to invalidate them with the transport).
    var all: [Channel] { state.withLock { Array($0.channels.values) } }

    /// How many channels are kept.
    var count: Int { state.withLock { $0.channels.count } }
}
