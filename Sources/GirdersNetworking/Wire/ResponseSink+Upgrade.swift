import Foundation

/// A request that asks to switch protocols (``HTTPClient/upgrade(_:)``): a transport that can hands the connection
/// over after the `101` head instead of reading a body.
extension ResponseSink {
    /// Whether the request asks to switch protocols: a transport that can sends it on a connection of its own
    /// (HTTP/1.1, never shared), hands the head to ``receiveHead(statusCode:headers:)`` and, after a `101`, the
    /// connection to ``upgraded(to:)``. For any other status it delivers the response as usual. A transport that
    /// cannot leaves it unanswered, and the client reports ``ResponseError/unsupported(feature:)``.
    public var asksForUpgrade: Bool { destination == .upgrade }

    /// Takes the connection of a `101 Switching Protocols` answer; the client hands it to the caller of
    /// ``HTTPClient/upgrade(_:)``, or closes it when the exchange fails after all (a redirect, a rejected status).
    public func upgraded(to connection: any UpgradedConnection) {
        state.withLock { $0.body.upgrade = connection }
    }

    /// What a transport handed over, taken once.
    func takeUpgrade() -> (any UpgradedConnection)? {
        state.withLock { state in
            defer { state.body.upgrade = nil }
            return state.body.upgrade
        }
    }
}
