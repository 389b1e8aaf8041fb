public import Foundation

extension TremaDocument {
    /// The document as trema XML in UTF-8, in the layout trema tools write: two-space indentation, one
    /// `<text>` per key in order, `<context/>` when empty. Parsing the output gives an equal document: white space
    /// in attributes (which XML parsers normalise to spaces) is written as character references.
    /// - Throws: ``TremaError/exportFailed(reason:)`` naming the key when a text holds a character that XML 1.0
    ///   cannot carry (below U+0020 but tab, newline and carriage return; U+FFFE and U+FFFF), when the master
    ///   language or a value's language is not a language code the parser accepts, and for what the parser refuses
    ///   in a document built in code: an empty or repeated key, a text without values, two values in one language.
    public func xmlData() throws(TremaError) -> Data {
        guard TremaBuilder.isLanguageCode(masterLanguage) else {
            throw .exportFailed(reason: "the master language '\(masterLanguage.prefix(40))' is not a language code")
        }
        var keys = Set<String>()
        for text in texts {
            guard !text.key.isEmpty else { throw .exportFailed(reason: "a text has an empty key") }
            guard keys.insert(text.key).inserted else {
                throw .exportFailed(reason: "the key '\(text.key)' appears twice")
            }
            guard !text.values.isEmpty else { throw .exportFailed(reason: "text '\(text.key)' has no value") }
            var languages = Set<String>()
            if let repeated = text.values.first(where: { !languages.insert($0.language).inserted }) {
                throw .exportFailed(reason: "text '\(text.key)' has two values in '\(repeated.language.prefix(40))'")
            }
            for field in [text.key, text.context] + text.values.map(\.text)
            where field.unicodeScalars.contains(where: Self.isForbidden) {
                throw .exportFailed(reason: "text '\(text.key)' holds a character that XML 1.0 cannot carry")
            }
            if let value = text.values.first(where: { !TremaBuilder.isLanguageCode($0.language) }) {
                throw .exportFailed(
                    reason: "text '\(text.key)' has a value in '\(value.language.prefix(40))', not a language code")
            }
        }
        return Data(xmlString().utf8)
    }

    /// Not an XML 1.0 `Char`: C0 controls but tab, newline and carriage return, and the non-characters U+FFFE and
    /// U+FFFF (a Swift string holds no surrogates).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE
            || scalar.value == 0xFFFF
    }

    /// The document as trema XML text; see ``xmlData()``. Control characters XML cannot carry are written as
    /// character references, which XML parsers reject.
    public func xmlString() -> String {
        var out =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<trema masterLang=\"\(Self.escape(masterLanguage, attribute: true))\""
        if let schemaLocation {
            out += " \(schemaLocation.attribute)=\"\(Self.escape(schemaLocation.url, attribute: true))\""
            if schemaLocation.attribute.hasPrefix("xsi:") {
                out += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            }
        }
        out += ">\n"
        for text in texts {
            out += "  <text key=\"\(Self.escape(text.key, attribute: true))\">\n"
            out += text.context.isEmpty ? "    <context/>\n" : "    <context>\(Self.escape(text.context))</context>\n"
            for value in text.values {
                out += "    <value lang=\"\(Self.escape(value.language, attribute: true))\" status=\"\(value.status)\">"
                out += Self.escape(value.text)
                out += "</value>\n"
            }
            out += "  </text>\n"
        }
        out += "</trema>\n"
        return out
    }

    /// XML-escapes `&`, `<`, `>`, `"` and carriage returns (which XML would otherwise turn into newlines); in an
    /// `attribute`, also tabs and newlines, which XML parsers read back as spaces unless written as references.
    static func escape(_ text: String, attribute: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r": result += "&#13;"
            case "\t" where attribute: result += "&#9;"
            case "\n" where attribute: result += "&#10;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
