import Foundation
import GirdersNetworking

/// Reads the frames a server sends from bytes as they arrive, in any pieces, and refuses every frame section 5 of
/// RFC 6455 forbids a server to send, before its payload is buffered: a masked frame, reserved bits no extension
/// allows, an unknown opcode, a control frame over 125 bytes or fragmented, a length with its top bit set or not in
/// its shortest form, a payload over ``WebSocketLimits/frameBytes``. The buffer never holds more than one frame's
/// header and payload.
struct WebSocketFrameParser {
    private var buffer = Data()
    private var start = 0
    /// The frame whose header has arrived and whose payload has not all arrived yet.
    private var incomplete: (opcode: WebSocketFrame.Opcode, rsv1: Bool, headerLength: Int)?
    let limits: WebSocketLimits
    /// Whether permessage-deflate was agreed (RSV1 allowed on a message's first frame).
    let compression: Bool

    init(limits: WebSocketLimits, compression: Bool) {
        self.limits = limits
        self.compression = compression
    }

    /// Adds bytes from the connection.
    mutating func append(_ bytes: Data) {
        if start == buffer.count {
            // Nothing is pending: take the bytes as they are (no copy; indices stay relative to their start).
            buffer = bytes
            start = 0
            return
        }
        if start > 0, start >= buffer.count - start {
            // What was read is at least what is left: drop it (a move of less than half the buffer), so the buffer
            // stays about one frame and a piece, wherever the pieces end.
            buffer.removeSubrange(buffer.startIndex..<buffer.startIndex + start)
            start = 0
        }
        buffer.append(bytes)
    }

    /// The next whole frame, `nil` until one has arrived, or the rule the bytes break.
    mutating func next() throws(WebSocketError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[buffer.startIndex + start]
        let second = buffer[buffer.startIndex + start + 1]
        let fin = first & 0x80 != 0
        let rsv1 = first & 0x40 != 0
        guard first & 0x30 == 0 else {
            throw .protocolViolation(
                rule: "RSV2 or RSV3 set without an extension that defines them (5.2)", code: .protocolError)
        }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw .protocolViolation(rule: "unknown opcode \(first & 0x0F) (5.2)", code: .protocolError)
        }
        if rsv1, !compression || opcode.isControl || opcode == .continuation {
            let why =
                compression
                ? "RSV1 on a control or continuation frame (RFC 7692, 6)" : "RSV1 set without permessage-deflate (5.2)"
            throw .protocolViolation(rule: why, code: .protocolError)
        }
        guard second & 0x80 == 0 else {
            throw .protocolViolation(rule: "a masked frame from the server (5.1)", code: .protocolError)
        }
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(byte(2)) << 8 | UInt64(byte(3))
            headerLength = 4
            guard length >= 126 else {
                throw .protocolViolation(
                    rule: "a 16-bit length under 126 (5.2: the shortest form)", code: .protocolError)
            }
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = (2..<10).reduce(UInt64(0)) { $0 << 8 | UInt64(byte($1)) }
            headerLength = 10
            guard length & (1 << 63) == 0 else {
                throw .protocolViolation(rule: "a 64-bit length with its top bit set (5.2)", code: .protocolError)
            }
            guard length > 0xFFFF else {
                throw .protocolViolation(
                    rule: "a 64-bit length under 65536 (5.2: the shortest form)", code: .protocolError)
            }
        }
        if opcode.isControl {
            guard fin else { throw .protocolViolation(rule: "a fragmented control frame (5.5)", code: .protocolError) }
            guard length <= UInt64(WebSocketFrame.controlPayloadLimit) else {
                throw .protocolViolation(
                    rule: "a control frame of \(length) bytes (5.5: at most 125)", code: .protocolError)
            }
        }
        guard length <= UInt64(max(0, limits.frameBytes)) else {
            throw .limitExceeded(limit: .frameBytes, maximum: limits.frameBytes)
        }
        let total = headerLength + Int(length)
        guard available >= total else {
            incomplete = (opcode, rsv1, headerLength)
            return nil
        }
        incomplete = nil
        let from = buffer.startIndex + start + headerLength
        let payload = Data(buffer[from..<from + Int(length)])
        start += total
        return WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, payload: payload)
    }

    /// After ``next()`` returned `nil`: the frame still arriving, when its header is here, with the payload bytes so
    /// far (so a text frame's UTF-8 can be checked as it arrives, not once up to ``WebSocketLimits/frameBytes``
    /// are in).
    var incompleteFrame: (opcode: WebSocketFrame.Opcode, rsv1: Bool, payload: Data.SubSequence)? {
        guard let incomplete else { return nil }
        let from = buffer.startIndex + start + incomplete.headerLength
        guard from <= buffer.endIndex else { return nil }
        return (incomplete.opcode, incomplete.rsv1, buffer[from..<buffer.endIndex])
    }

    private func byte(_ offset: Int) -> UInt8 {
        buffer[buffer.startIndex + start + offset]
    }

    /// Bytes received but not yet part of a returned frame.
    var pendingBytes: Int { buffer.count - start }

    /// The bytes the buffer holds, read ones included (for tests: about one frame, whatever the pieces).
    var bufferedBytes: Int { buffer.count }
}
