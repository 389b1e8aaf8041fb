/// How much a WebSocket connection holds, with defaults safe against a hostile server. A frame or message past a
/// limit closes the connection with 1009 (message too big) and fails the reader with
/// ``WebSocketError/limitExceeded(limit:maximum:)``.
///
/// Outgoing messages need no limit: Girders queues none. Each ``WebSocket/send(_:)`` waits for its turn and then
/// until the connection took its bytes, one frame at a time, so Girders holds one outgoing frame at a time and a
/// server that does not read holds its senders back.
public struct WebSocketLimits: Sendable, Equatable {
    /// The most payload bytes of one frame (before decompression). Default 16 MiB.
    public var frameBytes: Int
    /// The most bytes of one message, its fragments added up, after decompression. Default 16 MiB.
    public var messageBytes: Int
    /// The most decompressed bytes per compressed byte of a message, checked once it passes 1 MiB. Default 100.
    public var decompressionRatio: Int

    /// Limits; each has a default (see above).
    public init(frameBytes: Int = 16 << 20, messageBytes: Int = 16 << 20, decompressionRatio: Int = 100) {
        self.frameBytes = frameBytes
        self.messageBytes = messageBytes
        self.decompressionRatio = decompressionRatio
    }

    /// The defaults.
    public static let standard = WebSocketLimits()

    /// A limit by name, for errors.
    public enum Limit: String, Sendable, Hashable, CustomStringConvertible {
        case frameBytes, messageBytes, decompressionRatio

        /// `WebSocketLimits.<name>`.
        public var description: String { "WebSocketLimits.\(rawValue)" }
    }
}
