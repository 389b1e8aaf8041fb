public import GirdersNetworking

extension WebSocket {
    /// When and how often a ``ReconnectingWebSocket`` opens its connection again: GirdersNetworking's
    /// `ReconnectPolicy`, the one `ServerSentEvents` uses too.
    public typealias Reconnect = ReconnectPolicy
}

extension ReconnectPolicy {
    /// Whether a connection that ended with `error` (or a handshake that failed with it) is opened again.
    static func reconnects(after error: any Error) -> Bool {
        switch error {
        case let error as WebSocketError:
            switch error {
            case .connectionLost: return true
            case .closedByServer(let code, _): return [1001, 1011, 1012, 1013].contains(code.rawValue)
            case .protocolViolation, .limitExceeded, .notSent: return false
            }
        case let error as ResponseError:
            switch error.kind {
            case .interrupted, .timedOut, .cannotConnect, .cannotFindHost: return true
            default: return false
            }
        default:
            return false
        }
    }
}
