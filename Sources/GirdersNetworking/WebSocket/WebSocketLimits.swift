/// How much a WebSocket connection holds, with defaults safe against a hostile server. A frame or message past a
/// limit closes the connection with 1009 (message too big) and fails the reader with
/// ``WebSocketError/limitExceeded(limit:maximum:)``.
public struct WebSocketLimits: Sendable, Equatable {
    /// The most payload bytes of one frame (before decompression). Default 16 MiB.
    public var frameBytes: Int
    /// The most bytes of one message, its fragments added up, after decompression. Default 16 MiB.
    public var messageBytes: Int
    /// The most decompressed bytes per compressed byte of a message, checked once it passes 1 MiB. Default 100.
    public var decompressionRatio: Int
    /// The most bytes of outgoing messages waiting to be written; `send` waits beyond it. Default 1 MiB.
    public var queuedOutgoingBytes: Int

    /// Limits; each has a default (see above).
    public init(
        frameBytes: Int = 16 << 20, messageBytes: Int = 16 << 20, decompressionRatio: Int = 100,
        queuedOutgoingBytes: Int = 1 << 20
    ) {
        self.frameBytes = frameBytes
        self.messageBytes = messageBytes
        self.decompressionRatio = decompressionRatio
        self.queuedOutgoingBytes = queuedOutgoingBytes
    }

    /// The defaults.
    public static let standard = WebSocketLimits()

    /// A limit by name, for errors.
    public enum Limit: String, Sendable, Hashable, CustomStringConvertible {
        case frameBytes, messageBytes, decompressionRatio, queuedOutgoingBytes

        /// `WebSocketLimits.<name>`.
        public var description: String { "WebSocketLimits.\(rawValue)" }
    }
}
