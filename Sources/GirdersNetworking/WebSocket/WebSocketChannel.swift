import Foundation

/// The bytes under a WebSocket after its opening handshake: what a transport provides (a libcurl connection of its
/// own, a socket; a test's scripted server), and all ``WebSocket`` needs of it. Reads and writes may overlap (one
/// reader, one writer at a time); `close` ends both.
protocol WebSocketChannel: Sendable {
    /// The next bytes from the server, or `nil` once it closed the connection.
    func read() async throws(WebSocketError) -> Data?
    /// Writes all of `bytes`, returning once the transport has taken them.
    func write(_ bytes: Data) async throws(WebSocketError)
    /// Closes the connection; a pending read returns `nil`.
    func close() async
}
