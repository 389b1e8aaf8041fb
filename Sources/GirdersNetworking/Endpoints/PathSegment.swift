/// One value as one path segment: everything but RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) is
/// percent-encoded, so an id holding `/`, `?`, `#` or `%` cannot change the path's shape.
///
/// ```swift
/// var path: String { "/users/\(pathSegment(userID))/orders" }  // "a/b?c" -> "/users/a%2Fb%3Fc/orders"
/// ```
///
/// A value that is exactly `.` or `..` comes out as `%2E` or `%2E%2E`, which servers read as a dot segment, so an
/// endpoint's path holding one is refused when the request is built (``ResponseError/invalidRequest(reason:)``).
public func pathSegment(_ value: some CustomStringConvertible) -> String {
    let text = value.description
    if text == "." || text == ".." { return String(repeating: "%2E", count: text.count) }
    var encoded = ""
    encoded.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            encoded.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let hex = Array("0123456789ABCDEF".utf8)
            encoded += "%"
            encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
            encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
        }
    }
    return encoded
}
