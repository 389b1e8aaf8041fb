/// The character classes of HTTP's grammar, the one definition every parser and check uses (header names and
/// values, methods, cookies, Server-Sent Events, credentials).
///
/// `public`, not `package`, for one reason: this compiler inlines an `@inlinable` function into another module only
/// when it is public (a `package` one stays a call, measured at 0.4% of a request's CPU when a head's every byte was
/// checked). GirdersSupport is no product, so no code outside this package can import it either way.
public enum HTTPCharacters {
    /// A `tchar` of RFC 9110, 5.6.2: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
    @inlinable public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Whether `bytes` are a `token` of RFC 9110: at least one `tchar` and nothing else.
    @inlinable public static func isToken<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var any = false
        for byte in bytes {
            guard isTokenByte(byte) else { return false }
            any = true
        }
        return any
    }

    /// A control character a field value must not hold (RFC 9110, 5.5): a C0 control other than horizontal tab,
    /// or DEL.
    @inlinable public static func isFieldControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// Any ASCII control character, horizontal tab included, or DEL: what a line-based format (Server-Sent Events'
    /// `id`, a cookie kept on disk, a credential) refuses outright.
    @inlinable public static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }
}
