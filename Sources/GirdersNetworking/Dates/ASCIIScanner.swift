/// A cursor over ASCII bytes for the date parsers.
struct ASCIIScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// Runs `body` with a scanner over the UTF-8 bytes of `text`.
    static func scan<Result>(_ text: String, _ body: (inout ASCIIScanner) -> Result) -> Result {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = ASCIIScanner(bytes: bytes)
            return body(&scanner)
        }
    }

    var isAtEnd: Bool { position >= bytes.count }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpaces() {
        while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { position += 1 }
    }

    /// Reads `minimum...maximum` decimal digits.
    mutating func number(minimumDigits: Int, maximumDigits: Int) -> (value: Int, digits: Int)? {
        var value = 0
        var digits = 0
        while digits < maximumDigits, let byte = current, byte >= 0x30, byte <= 0x39 {
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            position += 1
        }
        return digits >= minimumDigits ? (value, digits) : nil
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        position += 1
        return true
    }

    /// Reads letters and returns them lowercased, packed into an integer for cheap comparisons.
    mutating func word() -> (packed: UInt64, length: Int) {
        var packed: UInt64 = 0
        var length = 0
        while let byte = current, (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x7A {
            if length < 8 { packed = packed << 8 | UInt64(byte | 0x20) }
            length += 1
            position += 1
        }
        return (packed, length)
    }

    static func pack(_ text: StaticString) -> UInt64 {
        text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }
}
