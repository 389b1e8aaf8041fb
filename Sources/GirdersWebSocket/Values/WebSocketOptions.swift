import Foundation
import GirdersNetworking

extension WebSocket {
    /// How `HTTPClient/webSocket(_:options:)` opens a connection and keeps it.
    public struct Options: Sendable {
        /// The subprotocols offered (`Sec-WebSocket-Protocol`), in order of preference; the server's choice is
        /// ``WebSocket/protocol``, and a choice that was not offered fails the handshake.
        public var protocols: [String]
        /// Whether permessage-deflate (RFC 7692) is offered, so the server may send compressed messages (inflated
        /// within ``WebSocketLimits``; the client itself sends uncompressed). Where Girders has no inflater (Apple
        /// platforms without zlib loaded) it is not offered.
        public var compression: Bool
        /// permessage-deflate's parameters the offer carries when ``compression`` is on (RFC 7692, 7.1).
        public var deflate: DeflateParameters
        /// The sizes a connection holds to.
        public var limits: WebSocketLimits
        /// How often a ping is sent while the connection is open; when the server has not answered one ping (with
        /// any pong, or any other frame) by the time the next is due, the connection is taken as lost and the
        /// reader gets ``WebSocketError/connectionLost(reason:)``. `nil` (the default) sends none.
        public var pingInterval: Duration?

        /// Options; each has a default (see above).
        public init(
            protocols: [String] = [], compression: Bool = true, deflate: DeflateParameters = DeflateParameters(),
            limits: WebSocketLimits = .standard, pingInterval: Duration? = nil
        ) {
            self.protocols = protocols
            self.compression = compression
            self.deflate = deflate
            self.limits = limits
            self.pingInterval = pingInterval
        }
    }

    /// What a permessage-deflate offer asks of the server, and allows it (RFC 7692, section 7.1). The client sends
    /// uncompressed, so it holds to any `client_*` parameter the server names; the `server_*` ones bound the server,
    /// and an answer that does not honour them fails the handshake.
    public struct DeflateParameters: Sendable, Equatable {
        /// Asks the server to compress each message on its own (`server_no_context_takeover`): less memory on both
        /// sides, a little less compression. An answer without it fails the handshake.
        public var serverNoContextTakeover: Bool
        /// The largest LZ77 window the server may use, 8 to 15 (`server_max_window_bits`); `nil` asks for none. An
        /// answer with a larger one (or none) fails the handshake.
        public var serverMaxWindowBits: Int?
        /// Offers `client_no_context_takeover`, telling the server that the client keeps no compression context.
        public var clientNoContextTakeover: Bool
        /// Offers `client_max_window_bits` without a value (on by default), so a server that wants to name the
        /// client's window may do so (servers such as Autobahn's decline an offer without it).
        public var clientMaxWindowBits: Bool

        /// Parameters; by default only `client_max_window_bits` is offered.
        public init(
            serverNoContextTakeover: Bool = false, serverMaxWindowBits: Int? = nil,
            clientNoContextTakeover: Bool = false, clientMaxWindowBits: Bool = true
        ) {
            self.serverNoContextTakeover = serverNoContextTakeover
            self.serverMaxWindowBits = serverMaxWindowBits.map { min(max($0, 8), 15) }
            self.clientNoContextTakeover = clientNoContextTakeover
            self.clientMaxWindowBits = clientMaxWindowBits
        }

        /// The offer's `Sec-WebSocket-Extensions` value.
        var offer: String {
            var parts = ["permessage-deflate"]
            if serverNoContextTakeover { parts.append("server_no_context_takeover") }
            if let serverMaxWindowBits { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
            if clientNoContextTakeover { parts.append("client_no_context_takeover") }
            if clientMaxWindowBits { parts.append("client_max_window_bits") }
            return parts.joined(separator: "; ")
        }
    }
}
