public import Foundation

extension TremaDocument {
    /// The document as trema XML in UTF-8, in the layout trema tools write: two-space indentation, one
    /// `<text>` per key in order, `<context/>` when empty. Parsing the output gives an equal document.
    /// - Throws: ``TremaError/exportFailed(reason:)`` naming the key when a text holds a control character that
    ///   XML 1.0 cannot carry (anything below U+0020 but tab, newline and carriage return).
    public func xmlData() throws(TremaError) -> Data {
        for text in texts {
            for field in [text.key, text.context] + text.values.map(\.text)
            where field.unicodeScalars.contains(where: Self.isForbidden) {
                throw .exportFailed(reason: "text '\(text.key)' holds a control character that XML 1.0 cannot carry")
            }
        }
        return Data(xmlString().utf8)
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r"
    }

    /// The document as trema XML text; see ``xmlData()``. Control characters XML cannot carry are written as
    /// character references, which XML parsers reject.
    public func xmlString() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<trema masterLang=\"\(Self.escape(masterLanguage))\""
        if let schemaLocation {
            out += " \(schemaLocation.attribute)=\"\(Self.escape(schemaLocation.url))\""
            if schemaLocation.attribute.hasPrefix("xsi:") {
                out += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            }
        }
        out += ">\n"
        for text in texts {
            out += "  <text key=\"\(Self.escape(text.key))\">\n"
            out += text.context.isEmpty ? "    <context/>\n" : "    <context>\(Self.escape(text.context))</context>\n"
            for value in text.values {
                out += "    <value lang=\"\(Self.escape(value.language))\" status=\"\(value.status)\">"
                out += Self.escape(value.text)
                out += "</value>\n"
            }
            out += "  </text>\n"
        }
        out += "</trema>\n"
        return out
    }

    /// XML-escapes `&`, `<`, `>`, `"` and carriage returns (which XML would otherwise turn into newlines).
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
