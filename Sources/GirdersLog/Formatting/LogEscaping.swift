/// The escaping that keeps one record on one line and control sequences away from terminals.
///
/// Line feed, carriage return and tab become `\n`, `\r` and `\t`; every other C0 control, DEL, the C1 controls
/// (U+0080 to U+009F, NEL among them), U+2028 and U+2029 become `\u{XX}`; a backslash becomes `\\`. Everything
/// else is copied. Text with none of these (the common case) is copied in one go.
public enum LogEscaping {
    /// `text` escaped, as a string.
    public static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` escaped to `buffer` as UTF-8.
    public static func append(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        let clean = text.withUTF8 { bytes in
            // 0xC2 starts U+0080...U+00BF (the C1 controls among them), 0xE2 starts U+2000...U+2FFF.
            !bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") || $0 == 0xC2 || $0 == 0xE2 }
        }
        guard !clean else {
            text.withUTF8 { buffer.append(contentsOf: $0) }
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: buffer.append(contentsOf: "\\n".utf8)
            case 0x0D: buffer.append(contentsOf: "\\r".utf8)
            case 0x09: buffer.append(contentsOf: "\\t".utf8)
            case 0x5C: buffer.append(contentsOf: "\\\\".utf8)
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                buffer.append(contentsOf: "\\u{\(hex.count == 1 ? "0" + hex : hex)}".utf8)
            default:
                buffer.append(contentsOf: String(scalar).utf8)
            }
        }
    }
}
