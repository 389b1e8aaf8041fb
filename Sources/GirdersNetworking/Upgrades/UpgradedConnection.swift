public import Foundation

/// The connection a transport hands over after a `101 Switching Protocols` answer (RFC 9110, 15.2.2): what
/// ``HTTPClient/upgrade(_:)`` returns and all a protocol module (GirdersWebSocket) needs of it. The transport only
/// moves bytes; the module frames the new protocol and does every check of it, the same on every transport.
///
/// A transport offers upgrades by answering a sink that ``ResponseSink/asksForUpgrade``: it sends the request on a
/// connection of its own (HTTP/1.1, never shared), hands the head to ``ResponseSink/receiveHead(statusCode:headers:)``
/// and, after a `101`, the connection to ``ResponseSink/upgraded(to:)`` (``CurlTransport``, ``URLSessionTransport``
/// and the conformance suite's socket transport do). One reader and one writer at a time, which may overlap; `close`
/// ends both, and a read waiting then returns `nil`.
public protocol UpgradedConnection: Sendable {
    /// The next bytes from the server (bytes that came with the `101` head first), or `nil` once the server closed
    /// the connection or ``close()`` was called.
    func read() async throws(ConnectionLost) -> Data?
    /// Writes all of `bytes`, returning once the connection has taken them (so a peer that does not read holds the
    /// writer back, never a queue).
    func write(_ bytes: Data) async throws(ConnectionLost)
    /// Closes the connection; safe to call more than once.
    func close() async
}

/// An ``UpgradedConnection`` read best from a thread of its own (libcurl's connections: the thread that sees their
/// sockets ready), so a reader started there saves a hand-over between threads per read.
public protocol ThreadPreferringConnection: UpgradedConnection {
    /// Runs `reader` as a task that prefers the connection's own thread.
    func startReading(_ reader: @escaping @Sendable () async -> Void)
}

/// Why an ``UpgradedConnection`` could not be read or written: it failed or timed out, with the transport's words.
public struct ConnectionLost: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened, in the transport's words ("reading failed: Connection reset by peer").
    public let reason: String

    /// A failure described by `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
