/// Why a WebSocket connection failed: the rule the server broke (and the close code sent for it), a limit, the
/// server's own close, or the connection's end.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server broke a rule of RFC 6455 or RFC 7692; `code` is what the client closed with (1002, 1007).
    case protocolViolation(rule: String, code: WebSocketCloseCode)
    /// A frame or message passed a limit; the client closed with 1009.
    case limitExceeded(limit: WebSocketLimits.Limit, maximum: Int)
    /// The server closed the connection with `code` and `reason`.
    case closedByServer(code: WebSocketCloseCode, reason: String)
    /// The connection ended without a close handshake (code 1006).
    case connectionLost(reason: String)
    /// A message or ping was not sent because the close handshake had begun or the connection had ended; the
    /// connection itself may have ended normally.
    case notSent(reason: String)

    /// The close code the client sends (or, for a server's close, the code it sent).
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .protocolViolation(_, let code): code
        case .limitExceeded: .messageTooBig
        case .closedByServer(let code, _): code
        case .connectionLost: .abnormalClosure
        case .notSent: .normalClosure
        }
    }

    /// What happened, with the rule or limit and the close code.
    public var description: String {
        switch self {
        case .protocolViolation(let rule, let code):
            "the server broke the WebSocket protocol (closed with \(code)): \(rule)"
        case .limitExceeded(.decompressionRatio, let maximum):
            "a compressed WebSocket message inflated past WebSocketLimits.decompressionRatio (\(maximum) to 1)"
        case .limitExceeded(let limit, let maximum): "a WebSocket frame or message passed \(limit) (\(maximum) bytes)"
        case .closedByServer(let code, let reason):
            "the server closed the WebSocket with \(code)\(reason.isEmpty ? "" : ": \(reason)")"
        case .connectionLost(let reason): "the WebSocket connection ended without a close: \(reason)"
        case .notSent(let reason): "the WebSocket message was not sent: \(reason)"
        }
    }
}
