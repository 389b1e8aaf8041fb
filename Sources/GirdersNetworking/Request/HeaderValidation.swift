import GirdersSupport

/// RFC 9110's rules for header fields, checked when a ``Request`` is built, so that nothing a caller supplies can
/// add a header, a line or a second request to the wire, and no field is silently dropped by the transport.
///
/// - A name is a token: 1 or more of `A-Z a-z 0-9` and ``!#$%&'*+-.^_`|~``; no space, colon or control.
/// - A value holds no control character except horizontal tab: no CR, LF or NUL, no DEL.
/// - A value holds at most ``maximumValueLength`` bytes and all fields together at most ``maximumTotalLength``;
///   servers refuse far less (8 to 16 KiB is common), and libcurl fails larger ones with "Out of memory".
///
/// A field that breaks a rule makes the request fail with ``ResponseError/invalidRequest(reason:)`` naming the
/// header (escaped) and the byte offset; values are never repeated, as they may hold credentials.
enum HeaderValidation {
    /// The most bytes one field value may hold.
    static let maximumValueLength = 65_536
    /// The most bytes all fields may hold together, counting `name: value` and the line break.
    static let maximumTotalLength = 262_144

    /// The first rule `headers` breaks, as a sentence, or `nil`.
    static func problem(in headers: HTTPHeaders) -> String? {
        var total = 0
        for field in headers {
            if let problem = problem(name: field.name) ?? problem(value: field.value, of: field.name) {
                return problem
            }
            total += field.name.utf8.count + field.value.utf8.count + 4
        }
        guard total <= maximumTotalLength else {
            return "the header fields take \(total) bytes; at most \(maximumTotalLength) are sent"
        }
        return nil
    }

    /// Why `name` is not a token, or `nil`.
    static func problem(name: String) -> String? {
        if name.isEmpty { return "a header name is empty" }
        for (offset, byte) in name.utf8.enumerated() where !HTTPCharacters.isTokenByte(byte) {
            return "the header name \(name.debugDescription) holds \(describe(byte)) at byte \(offset); "
                + "a header name is a token of letters, digits and !#$%&'*+-.^_`|~"
        }
        return nil
    }

    /// Why `value` cannot be sent as the value of `name`, or `nil`.
    static func problem(value: String, of name: String) -> String? {
        let count = value.utf8.count
        if count > maximumValueLength {
            return "the value of the header \(name.debugDescription) is \(count) bytes; "
                + "at most \(maximumValueLength) are sent"
        }
        for (offset, byte) in value.utf8.enumerated() where HTTPCharacters.isFieldControl(byte) {
            return "the value of the header \(name.debugDescription) holds \(describe(byte)) at byte \(offset); "
                + "header values must not hold CR, LF, NUL or other control characters"
        }
        return nil
    }

    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0D: "a carriage return (CR)"
        case 0x0A: "a line feed (LF)"
        case 0x00: "a NUL byte"
        case 0x20: "a space"
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "the byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }
}
