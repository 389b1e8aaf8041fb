#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
@testable import GirdersNetworking

/// `Server/websocket_server.py`: PyPI's `websockets` (13.1), started once for the test run.
struct WebSocketServer: Sendable {
    let port: Int
    private let stdin: FileHandle

    static let shared: Result<WebSocketServer, any Error> = Result { try WebSocketServer() }

    static func get() throws -> WebSocketServer { try shared.get() }

    private init() throws {
        let started = try PythonServer.start("websocket_server")
        port = started.port
        stdin = started.stdin
    }

    /// `ws://127.0.0.1:<port><path>`.
    func url(_ path: String, scheme: String = "ws") -> URL {
        URL(string: "\(scheme)://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/invalid-test-url")
    }

    func request(_ path: String) -> Request {
        Request(MutableRequest(method: .get, url: url(path)))
    }
}

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
#endif
