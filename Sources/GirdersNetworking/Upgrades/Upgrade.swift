import Foundation

/// The `101 Switching Protocols` answer to ``HTTPClient/upgrade(_:)``: its head and the connection that now speaks
/// the protocol the request asked for.
public struct Upgrade: Sendable {
    /// The `101` head (its body is empty).
    public let response: HTTPResponse
    /// The connection, for the caller to speak the new protocol over and to close.
    public let connection: any UpgradedConnection

    /// An upgrade answered with `response` over `connection` (for a test double of ``HTTP``).
    public init(response: HTTPResponse, connection: any UpgradedConnection) {
        self.response = response
        self.connection = connection
    }
}
