/// Checks UTF-8 as it arrives in pieces (the well-formed sequences of Unicode's table 3-7: no overlong forms, no
/// surrogates, nothing past U+10FFFF), so a text message split across frames is refused at the first bad byte
/// (RFC 6455, section 8.1) and a message cut inside a character is refused at its end.
struct UTF8Validator {
    /// Continuation bytes still expected for the character being read.
    private var remaining = 0
    /// The range the next byte must be in (narrower than 0x80...0xBF right after E0, ED, F0 and F4).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    /// Whether `bytes` continue well-formed UTF-8.
    mutating func accepts<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        // Over contiguous bytes where the sequence has them (Data, arrays): its iterator took most of the time of
        // Autobahn's 16 MiB text messages.
        if let result = bytes.withContiguousStorageIfAvailable({ accepts(buffer: $0) }) { return result }
        return accepts(sequence: bytes)
    }

    /// Between characters, eight ASCII bytes are checked at once (most text is mostly ASCII).
    private mutating func accepts(buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(buffer)
        var index = 0
        while index < raw.count {
            if remaining == 0 {
                while index + 8 <= raw.count,
                    raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
            }
            let end = min(index + 8, raw.count)
            guard accepts(sequence: buffer[index..<end]) else { return false }
            index = end
        }
        return true
    }

    private mutating func accepts<Bytes: Sequence<UInt8>>(sequence bytes: Bytes) -> Bool {
        for byte in bytes {
            if remaining > 0 {
                guard byte >= low, byte <= high else { return false }
                remaining -= 1
                low = 0x80
                high = 0xBF
                continue
            }
            switch byte {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: remaining = 1
            case 0xE0: (remaining, low) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
            case 0xED: (remaining, high) = (2, 0x9F)
            case 0xF0: (remaining, low) = (3, 0x90)
            case 0xF1...0xF3: remaining = 3
            case 0xF4: (remaining, high) = (3, 0x8F)
            default: return false
            }
        }
        return true
    }

    /// Whether the text ended between characters.
    var isComplete: Bool { remaining == 0 }
}
