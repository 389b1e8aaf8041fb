import GirdersNetworking
import GirdersSupport

extension CacheControl {
    /// Appends the well-formed directives of one field value to `directives` (RFC 9111, section 5.2: `token [ "="
    /// ( token / quoted-string ) ]`, comma-separated, with optional whitespace around the commas only).
    static func parse(_ bytes: [UInt8], into directives: inout [Directive]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || isWhitespace(byte) {
                index += 1
                continue
            }
            if let (directive, end) = directive(in: bytes, at: index) {
                directives.append(directive)
                index = end
            } else {
                index = nextComma(in: bytes, from: index)
            }
        }
    }

    /// The directive starting at `start` and the index just past it (at a comma or the end), or `nil` when it is
    /// malformed.
    private static func directive(in bytes: [UInt8], at start: Int) -> (Directive, Int)? {
        var index = start
        while index < bytes.count, HTTPCharacters.isTokenByte(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        let name = String(decoding: bytes[start..<index].map(lowercased), as: UTF8.self)
        var argument: String?
        if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
            index += 1
            guard let (value, end) = argumentValue(in: bytes, at: index) else { return nil }
            argument = value
            index = end
        }
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else { return nil }
        return (Directive(name: name, argument: argument), index)
    }

    /// A token or a quoted string (unquoted) at `start`, and the index past it.
    private static func argumentValue(in bytes: [UInt8], at start: Int) -> (String, Int)? {
        guard start < bytes.count else { return nil }
        if bytes[start] != UInt8(ascii: "\"") {
            var index = start
            while index < bytes.count, HTTPCharacters.isTokenByte(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            return (String(decoding: bytes[start..<index], as: UTF8.self), index)
        }
        var value: [UInt8] = []
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                return (String(decoding: value, as: UTF8.self), index + 1)
            case UInt8(ascii: "\\"):
                // quoted-pair: HTAB, SP, VCHAR or obs-text after the backslash.
                guard index + 1 < bytes.count, isQuotable(bytes[index + 1]) else { return nil }
                value.append(bytes[index + 1])
                index += 2
            default:
                guard isQuotable(byte) else { return nil }
                value.append(byte)
                index += 1
            }
        }
        return nil  // no closing quote
    }

    /// The index of the next comma outside a quoted string at or after `start`, or the end.
    private static func nextComma(in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if quoted, byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted, byte == UInt8(ascii: ",") { return index }
            index += 1
        }
        return bytes.count
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// HTAB, SP, a visible ASCII character or obs-text (RFC 9110, section 5.6.4).
    private static func isQuotable(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte != 0x7F)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
