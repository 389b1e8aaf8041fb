/// The character classes of HTTP's grammar, the one definition every parser and check uses (header names and
/// values, methods, cookies, Server-Sent Events, credentials).
package enum HTTPCharacters {
    /// A `tchar` of RFC 9110, 5.6.2: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Whether `bytes` are a `token` of RFC 9110: at least one `tchar` and nothing else.
    package static func isToken<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var any = false
        for byte in bytes {
            guard isTokenByte(byte) else { return false }
            any = true
        }
        return any
    }

    /// A control character a field value must not hold (RFC 9110, 5.5): a C0 control other than horizontal tab,
    /// or DEL.
    package static func isFieldControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// Any ASCII control character, horizontal tab included, or DEL: what a line-based format (Server-Sent Events'
    /// `id`, a cookie kept on disk, a credential) refuses outright.
    package static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }
}
