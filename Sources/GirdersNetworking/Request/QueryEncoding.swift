import Foundation

/// Percent-encoding for query strings and form bodies, shared by the request builders.
///
/// Only RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) stay as they are; everything else, `+`, `&`,
/// `=` and `/` included, is encoded from UTF-8, so no value can change the meaning of the query.
enum QueryEncoding {
    /// `value` with everything but unreserved characters percent-encoded; spaces as `%20`, or `+` in forms.
    static func encode(_ value: String, spaceAsPlus: Bool = false) -> String {
        var bytes: [UInt8] = []
        append(value, spaceAsPlus: spaceAsPlus, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func append(_ value: String, spaceAsPlus: Bool, to bytes: inout [UInt8]) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            case UInt8(ascii: " ") where spaceAsPlus:
                bytes.append(UInt8(ascii: "+"))
            default:
                let hex: StaticString = "0123456789ABCDEF"
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0x0F)])
            }
        }
    }

    /// `name=value&...`; an item without a value is written as its name alone.
    static func encode(_ items: [URLQueryItem], spaceAsPlus: Bool = false) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            append(item.name, spaceAsPlus: spaceAsPlus, to: &bytes)
            if let value = item.value {
                bytes.append(UInt8(ascii: "="))
                append(value, spaceAsPlus: spaceAsPlus, to: &bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Query items from GirdersSwift-style parameters: sorted by name, arrays as repeated names, `NSNull` as a
    /// name without a value, everything else by its description.
    static func items(from parameters: [String: Any]) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            if let values = value as? [Any] {
                items += values.map { URLQueryItem(name: name, value: text(of: $0)) }
            } else {
                items.append(URLQueryItem(name: name, value: text(of: value)))
            }
        }
        return items
    }

    private static func text(of value: Any) -> String? {
        switch value {
        case is NSNull: nil
        case let string as String: string
        default: "\(value)"
        }
    }

    /// `url` with `items` appended to its own query (before any fragment), or `nil` when the result is not a
    /// valid URL. Works on the string: `URLComponents` costs several microseconds per request on Linux.
    static func url(_ url: URL, appending items: [URLQueryItem]) -> URL? {
        guard !items.isEmpty else { return url }
        var text = url.absoluteString
        var fragment = Substring()
        if let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = text[hash...]
            text = String(text[..<hash])
        }
        switch text.utf8.last {
        case UInt8(ascii: "?"), UInt8(ascii: "&"): break
        default: text += text.utf8.contains(UInt8(ascii: "?")) ? "&" : "?"
        }
        text += encode(items)
        text += fragment
        return URL(string: text)
    }
}
