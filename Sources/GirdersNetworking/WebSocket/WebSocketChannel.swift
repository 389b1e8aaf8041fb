public import Foundation

/// The bytes under a WebSocket once its opening handshake succeeded: what a transport hands to
/// ``ResponseSink/upgraded(to:)`` after a `101 Switching Protocols` head (a connection of libcurl's own, a socket, a
/// test's scripted server), and all ``WebSocket`` needs of it. ``WebSocket`` does the framing, masking, the close
/// handshake and every check of RFC 6455 on top, the same for every transport.
///
/// One reader and one writer at a time, which may overlap; `close` ends both, and a read waiting then returns `nil`.
public protocol WebSocketChannel: Sendable {
    /// The next bytes from the server (bytes that came with the `101` head first), or `nil` once the server closed
    /// the connection or ``close()`` was called.
    func read() async throws(WebSocketError) -> Data?
    /// Writes all of `bytes`, returning once the connection has taken them (so a peer that does not read holds the
    /// writer back, never a queue).
    func write(_ bytes: Data) async throws(WebSocketError)
    /// Closes the connection; safe to call more than once.
    func close() async
}
