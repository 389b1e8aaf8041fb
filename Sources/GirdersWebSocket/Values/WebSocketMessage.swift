public import Foundation

/// One WebSocket message, its fragments joined (RFC 6455, section 5.4).
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message: valid UTF-8, checked across its fragments.
    case text(String)
    /// A binary message.
    case binary(Data)
}
