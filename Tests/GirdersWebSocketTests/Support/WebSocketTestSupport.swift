import Foundation
import GirdersTestServers

@testable import GirdersNetworking
@testable import GirdersWebSocket

extension WebSocket {
    /// Every message until the connection ends, and the error it ended with.
    func readAll() async -> ([WebSocketMessage], (any Error)?) {
        var messages: [WebSocketMessage] = []
        do {
            for try await message in self.messages { messages.append(message) }
            return (messages, nil)
        } catch {
            return (messages, error)
        }
    }

    /// The next message, or `nil` at the end.
    func next() async throws -> WebSocketMessage? {
        var iterator = messages.makeAsyncIterator()
        return try await iterator.next()
    }
}
