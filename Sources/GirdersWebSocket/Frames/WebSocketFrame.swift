import Foundation
import GirdersNetworking

/// One frame as it crossed the wire (RFC 6455, section 5.2): its flags, opcode and (unmasked) payload.
struct WebSocketFrame: Sendable, Equatable {
    /// The opcodes section 5.2 defines; any other is a protocol error.
    enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong: at most 125 bytes, never fragmented (section 5.5).
        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    var fin: Bool
    /// RSV1: the message is compressed (permessage-deflate, RFC 7692), on its first frame only.
    var rsv1: Bool
    var opcode: Opcode
    var payload: Data

    init(fin: Bool = true, rsv1: Bool = false, opcode: Opcode, payload: Data) {
        self.fin = fin
        self.rsv1 = rsv1
        self.opcode = opcode
        self.payload = payload
    }

    /// The most payload bytes of a control frame.
    static let controlPayloadLimit = 125
}
