import Foundation
import GirdersNetworking

/// Writes a client's frames (RFC 6455, section 5.2): every frame masked with a fresh random key (section 5.3), the
/// length in its shortest form.
enum WebSocketFrameWriter {
    /// The bytes of `frame`, masked with `key` (random unless a test gives one).
    static func bytes(of frame: WebSocketFrame, key: (UInt8, UInt8, UInt8, UInt8)? = nil) -> Data {
        let mask = key ?? randomKey()
        let count = frame.payload.count
        var header: [UInt8] = [(frame.fin ? 0x80 : 0) | (frame.rsv1 ? 0x40 : 0) | frame.opcode.rawValue]
        if count < 126 {
            header.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            header += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            header.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                header.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift)))
            }
        }
        let keyBytes = [mask.0, mask.1, mask.2, mask.3]
        header += keyBytes
        var out = Data(count: header.count + count)
        // The payload is masked in one pass over both buffers (a byte at a time through Data's append and iterator
        // took 5 s for Autobahn's 16 MiB messages). Invariant: `out` holds header.count + source.count bytes, so
        // every index below is in bounds (WebSocketFrameWriterTests: every length class, odd lengths, empty).
        out.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
            for (index, byte) in header.enumerated() { target[index] = byte }
            frame.payload.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
                let base = header.count
                // Eight bytes at a time with the key repeated (the key's phase is the payload offset's), then the
                // last few one by one.
                let key32 = UInt32(mask.0) | UInt32(mask.1) << 8 | UInt32(mask.2) << 16 | UInt32(mask.3) << 24
                let key64 = UInt64(littleEndian: UInt64(key32) | UInt64(key32) << 32)
                var index = 0
                while index + 8 <= source.count {
                    let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    target.storeBytes(of: word ^ key64, toByteOffset: base + index, as: UInt64.self)
                    index += 8
                }
                while index < source.count {
                    target[base + index] = source[index] ^ keyBytes[index & 3]
                    index += 1
                }
            }
        }
        return out
    }

    /// A close frame's payload: the code and as much of `reason` as fits in 123 bytes, cut at a character.
    static func closePayload(_ code: WebSocketCloseCode, reason: String) -> Data {
        var payload = Data([UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)])
        payload.append(contentsOf: Array(closeReason(reason).utf8))
        return payload
    }

    /// `reason` cut, at a character's end, to what a close frame holds beside its code (123 bytes).
    static func closeReason(_ reason: String) -> String {
        var kept = ""
        for character in reason {
            guard kept.utf8.count + String(character).utf8.count <= WebSocketFrame.controlPayloadLimit - 2 else {
                break
            }
            kept.append(character)
        }
        return kept
    }

    private static func randomKey() -> (UInt8, UInt8, UInt8, UInt8) {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt32
        return (UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }
}
