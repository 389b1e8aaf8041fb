import Foundation

extension WebSocket {
    /// How ``HTTPClient/webSocket(_:options:)`` opens a connection and keeps it.
    public struct Options: Sendable {
        /// The subprotocols offered (`Sec-WebSocket-Protocol`), in order of preference; the server's choice is
        /// ``WebSocket/protocol``, and a choice that was not offered fails the handshake.
        public var protocols: [String]
        /// Whether permessage-deflate (RFC 7692) is offered, so the server may send compressed messages (inflated
        /// within ``WebSocketLimits``; the client itself sends uncompressed). Where Girders has no inflater (Apple
        /// platforms without zlib loaded) it is not offered.
        public var compression: Bool
        /// The sizes a connection holds to.
        public var limits: WebSocketLimits
        /// How often a ping is sent while the connection is open; when the server has not answered one ping (with
        /// any pong, or any other frame) by the time the next is due, the connection is taken as lost and the
        /// reader gets ``WebSocketError/connectionLost(reason:)``. `nil` (the default) sends none.
        public var pingInterval: Duration?

        /// Options; each has a default (see above).
        public init(
            protocols: [String] = [], compression: Bool = true, limits: WebSocketLimits = .standard,
            pingInterval: Duration? = nil
        ) {
            self.protocols = protocols
            self.compression = compression
            self.limits = limits
            self.pingInterval = pingInterval
        }
    }
}
