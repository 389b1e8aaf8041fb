import Foundation
import GirdersNetworking

/// What ``TaskWebSocketEngine`` needs of the system's WebSocket task (`URLSessionWebSocketTask` on Apple
/// platforms, through ``SystemWebSocketTask``): the seam where Linux tests put a fake, so every decision the engine
/// makes runs here too.
protocol WebSocketTaskSeam: Sendable {
    /// The next whole message; throws once the connection ended (read ``closeCode`` for how).
    func receive() async throws -> WebSocketMessage
    /// Sends a message, returning once the task has taken it.
    func send(_ message: WebSocketMessage) async throws
    /// Sends a ping and returns when its pong arrived.
    func sendPing() async throws
    /// Sends a close with `code` and `reason` and ends the connection.
    func cancel(code: Int, reason: Data?)
    /// The code of the close the server sent, 0 while there is none.
    var closeCode: Int { get }
    /// The reason of the server's close, if any.
    var closeReason: Data? { get }
}
