import Foundation

/// The opening handshake of a WebSocket (``HTTPClient/webSocket(_:options:)``): the request asks the server to switch
/// protocols, and a transport that can hands the connection over after the `101` head instead of reading a body.
extension ResponseSink {
    /// Whether the request is a WebSocket's opening handshake: a transport that can open one sends it on a
    /// connection of its own (HTTP/1.1, never shared), hands the head to ``receiveHead(statusCode:headers:)`` and,
    /// after a `101`, the connection to ``upgraded(to:)``. For any other status it delivers the response as usual.
    /// A transport that cannot leaves it unanswered, and the client reports ``ResponseError/unsupported(feature:)``.
    public var asksForWebSocket: Bool { destination == .webSocket }

    /// Takes the connection of a `101 Switching Protocols` answer; the client checks the head and runs the WebSocket
    /// over `channel` (or closes it when the head breaks a rule of RFC 6455).
    public func upgraded(to channel: any WebSocketChannel) {
        state.withLock { $0.upgrade = .bytes(channel) }
    }

    /// Takes the system's WebSocket task after its `101` (``URLSessionTransport`` on Apple platforms).
    func upgraded(toTask task: any WebSocketTaskSeam) {
        state.withLock { $0.upgrade = .task(task) }
    }

    /// What a transport handed over, taken once.
    func takeUpgrade() -> WebSocketUpgrade? {
        state.withLock { state in
            defer { state.upgrade = nil }
            return state.upgrade
        }
    }
}

/// What a transport hands over after a WebSocket's `101`.
enum WebSocketUpgrade: Sendable {
    /// The connection's bytes: Girders frames them (``WebSocketSession``).
    case bytes(any WebSocketChannel)
    /// The system's WebSocket task, which frames itself (``TaskWebSocketEngine``).
    case task(any WebSocketTaskSeam)

    /// Ends it unused (the client refused the handshake's answer).
    func close() async {
        switch self {
        case .bytes(let channel): await channel.close()
        case .task(let task): task.cancel(code: Int(WebSocketCloseCode.protocolError.rawValue), reason: nil)
        }
    }
}
