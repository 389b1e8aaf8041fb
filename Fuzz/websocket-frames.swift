import Foundation

/// libFuzzer entry: any bytes as what a server sends on a WebSocket (its first byte picks the piece size and
/// whether permessage-deflate was agreed). The frames and messages read, or the error, are the same whole and in
/// pieces; every message is within the limits; text is UTF-8; an error names a close code that may be sent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let bytes = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limits = WebSocketLimits(frameBytes: 4_096, messageBytes: 8_192)
    let compression = control & 0x80 != 0
    let whole = read(bytes, limits: limits, compression: compression, piece: max(1, bytes.count))
    let pieces = read(bytes, limits: limits, compression: compression, piece: Int(control & 0x1F) + 1)
    guard whole == pieces else { fatalError("whole and in pieces differ: \(whole) / \(pieces)") }
    if case .failure(let error) = whole, !error.closeCode.isSendable {
        fatalError("an error whose close code may not be sent: \(error)")
    }
    if case .success(let events) = whole {
        for event in events {
            switch event {
            case .message(.binary(let data)) where data.count > limits.messageBytes,
                .compressedMessage(_, let data) where data.count > limits.messageBytes:
                fatalError("a message over the limit")
            case .message(.text(let text)) where text.utf8.count > limits.messageBytes:
                fatalError("a text message over the limit")
            case .ping(let data) where data.count > 125, .pong(let data) where data.count > 125:
                fatalError("a control frame over 125 bytes")
            default: break
            }
        }
    }
    return 0
}

private func read(
    _ bytes: Data, limits: WebSocketLimits, compression: Bool, piece: Int
)
    -> Result<[WebSocketMessageAssembler.Event], WebSocketError>
{
    var parser = WebSocketFrameParser(limits: limits, compression: compression)
    var assembler = WebSocketMessageAssembler(limits: limits)
    var found: [WebSocketMessageAssembler.Event] = []
    var offset = 0
    do throws(WebSocketError) {
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            parser.append(bytes[bytes.startIndex + offset..<bytes.startIndex + end])
            offset = end
            while let frame = try parser.next() {
                if let event = try assembler.take(frame) { found.append(event) }
            }
        }
        return .success(found)
    } catch {
        return .failure(error)
    }
}
