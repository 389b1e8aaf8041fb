import Foundation
import GirdersNetworking

/// Turns frames into what the connection acts on: whole messages (fragments joined, text checked as UTF-8 across
/// them, sizes held to ``WebSocketLimits/messageBytes``), pings to answer, pongs, and the server's close. Refuses a
/// continuation without a start, a new message inside a fragmented one, a close whose code may not be sent or
/// whose reason is not UTF-8 (RFC 6455, sections 5.4, 5.5.1, 7.4 and 8.1).
struct WebSocketMessageAssembler {
    /// What a frame amounts to.
    enum Event: Equatable {
        case message(WebSocketMessage)
        /// A message of permessage-deflate whose compressed bytes are here; the connection inflates it.
        case compressedMessage(opcode: WebSocketFrame.Opcode, data: Data)
        case ping(Data)
        case pong(Data)
        case close(code: WebSocketCloseCode, reason: String)
    }

    let limits: WebSocketLimits
    private var opcode: WebSocketFrame.Opcode?
    private var compressed = false
    private var data = Data()
    private var text = UTF8Validator()
    /// How many payload bytes of the frame still arriving were checked as UTF-8, and the checker after them.
    private var checkedOfIncomplete = 0
    private var incompleteText = UTF8Validator()

    init(limits: WebSocketLimits) {
        self.limits = limits
    }

    /// Whether a fragmented message is being read.
    var isInsideMessage: Bool { opcode != nil }

    /// What `frame` amounts to, `nil` for a fragment of a message still arriving, or the rule it breaks.
    mutating func take(_ frame: WebSocketFrame) throws(WebSocketError) -> Event? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .continuation:
            guard opcode != nil else {
                throw .protocolViolation(
                    rule: "a continuation frame without a message to continue (5.4)", code: .protocolError)
            }
        case .text, .binary:
            guard opcode == nil else {
                throw .protocolViolation(rule: "a new message inside a fragmented one (5.4)", code: .protocolError)
            }
            opcode = frame.opcode
            compressed = frame.rsv1
            data = Data()
            text = UTF8Validator()
        }
        guard data.count + frame.payload.count <= limits.messageBytes else {
            throw .limitExceeded(limit: .messageBytes, maximum: limits.messageBytes)
        }
        let checked = checkedOfIncomplete
        checkedOfIncomplete = 0
        if opcode == .text, !compressed {
            if checked > 0 { text = incompleteText }
            guard text.accepts(frame.payload.dropFirst(checked)) else { throw Self.notUTF8 }
        }
        guard frame.fin, let kind = opcode else {
            data.append(frame.payload)
            return nil
        }
        opcode = nil
        // A message in one frame (the usual case) is that frame's payload, not a copy of it.
        let whole: Data
        if data.isEmpty {
            whole = frame.payload
        } else {
            data.append(frame.payload)
            whole = data
        }
        data = Data()
        if compressed { return .compressedMessage(opcode: kind, data: whole) }
        return try Self.message(kind, whole, validated: text.isComplete)
    }

    /// Checks the UTF-8 of a text frame still arriving (a message's first frame, or a continuation of an uncompressed
    /// text message), so invalid bytes fail the connection as soon as they are here (RFC 6455, section 8.1) rather
    /// than once the whole frame has arrived.
    mutating func check(
        incomplete opcode: WebSocketFrame.Opcode, rsv1: Bool, payload: Data.SubSequence
    )
        throws(WebSocketError)
    {
        guard payload.count > checkedOfIncomplete else { return }
        if checkedOfIncomplete == 0 {
            switch opcode {
            case .text where self.opcode == nil && !rsv1: incompleteText = UTF8Validator()
            case .continuation where self.opcode == .text && !compressed: incompleteText = text
            default: return
            }
        }
        guard incompleteText.accepts(payload.dropFirst(checkedOfIncomplete)) else { throw Self.notUTF8 }
        checkedOfIncomplete = payload.count
    }

    static let notUTF8 = WebSocketError.protocolViolation(
        rule: "a text message that is not UTF-8 (8.1)", code: .invalidPayloadData)

    /// A whole message of `kind` from its (decompressed) bytes; text must be complete UTF-8.
    static func message(
        _ kind: WebSocketFrame.Opcode, _ bytes: Data, validated: Bool? = nil
    ) throws(WebSocketError)
        -> Event
    {
        guard kind == .text else { return .message(.binary(bytes)) }
        var check = UTF8Validator()
        guard validated ?? (check.accepts(bytes) && check.isComplete) else { throw notUTF8 }
        // Checked above: decoding repairs nothing, in one pass (Foundation's String(data:encoding:) checked again).
        return .message(.text(String(decoding: bytes, as: UTF8.self)))
    }

    /// The server's close: no body (1005), or a code that may be sent and a UTF-8 reason (5.5.1, 7.4.1).
    static func close(_ payload: Data) throws(WebSocketError) -> Event {
        guard !payload.isEmpty else { return .close(code: .noStatusReceived, reason: "") }
        guard payload.count >= 2 else {
            throw .protocolViolation(rule: "a close frame with a one-byte body (5.5.1)", code: .protocolError)
        }
        let bytes = [UInt8](payload)
        let code = WebSocketCloseCode(rawValue: UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        guard code.isSendable else {
            throw .protocolViolation(
                rule: "a close with the code \(code), which may not be sent (7.4.1)", code: .protocolError)
        }
        var check = UTF8Validator()
        guard check.accepts(bytes[2...]), check.isComplete else {
            throw .protocolViolation(rule: "a close reason that is not UTF-8 (5.5.1)", code: .invalidPayloadData)
        }
        return .close(code: code, reason: String(decoding: bytes[2...], as: UTF8.self))
    }
}
