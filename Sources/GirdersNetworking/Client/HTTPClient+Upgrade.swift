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

extension HTTP {
    /// For a client that cannot switch protocols (a test double): ``ResponseError/unsupported(feature:)``.
    public func upgrade(_ request: Request) async throws(ResponseError) -> Upgrade {
        throw .unsupported(feature: "switching protocols on \(Self.self)")
    }
}

extension HTTPClient {
    /// Sends `request` asking the server to switch protocols (RFC 9110, 7.8; the caller writes `Upgrade` and the
    /// protocol's own fields) and returns the `101` head with the connection. The request runs the whole exchange:
    /// interceptors sign it and refresh a token after a `401` (it is then sent again), the cookie jar adds and
    /// stores cookies, the request's TLS credentials and pins apply, monitors see its ``RequestMetrics``, the
    /// deadline bounds it, and redirects are followed as ``redirects`` allows. `101` is the one status that succeeds.
    ///
    /// - Throws: ``ResponseError`` as a request does (it could not connect; any status other than `101`);
    ///   ``ResponseError/unsupported(feature:)`` when the transport cannot hand a connection over.
    public func upgrade(_ request: Request) async throws(ResponseError) -> Upgrade {
        let asking = request.editing { $0.acceptableStatusCodes = [101] }
        let exchanged = try await exchange(asking, destination: .upgrade, progress: nil)
        guard let connection = exchanged.upgrade else {
            throw .unsupported(
                feature: "switching protocols on \(type(of: transport)), which answered without a connection")
        }
        return Upgrade(response: exchanged.head, connection: connection)
    }
}
