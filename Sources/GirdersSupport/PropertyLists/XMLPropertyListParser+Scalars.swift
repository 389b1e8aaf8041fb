import Foundation

/// The scalar elements' texts as values: `<integer>`, `<real>`, `<date>`, `<data>`, each refused with the reason
/// and its offset when it is not what the element says.
extension XMLPropertyListParser {
    mutating func scalar(_ tag: Tag, _ name: String) throws(Failure) -> String {
        if tag.selfClosing { throw fail("<\(name)/> is empty", at: tag.offset) }
        return String(Self.trimmingASCIIWhitespace(try text(closing: name)))
    }

    /// Trims ASCII white space without Foundation, which is several times slower here.
    package static func trimmingASCIIWhitespace(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[first...last]
    }

    /// A decimal integer (with an optional sign) or `0x` followed by hexadecimal digits, within `Int`'s range;
    /// anything else, including a sign after `0x` and a number too large, is an error rather than a guess.
    func integer(_ text: String, at offset: Int) throws(Failure) -> PropertyListValue {
        if let number = Int(text) { return .integer(number) }
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            let digits = text.dropFirst(2)
            if !digits.isEmpty, digits.allSatisfy(\.isHexDigit), let number = Int(digits, radix: 16) {
                return .integer(number)
            }
        }
        let body = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        if !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw fail("\"\(text)\" does not fit in a 64-bit signed integer", at: offset)
        }
        throw fail("\"\(text)\" is not an integer", at: offset)
    }

    func real(_ text: String, at offset: Int) throws(Failure) -> PropertyListValue {
        guard let number = Double(text) else { throw fail("\"\(text)\" is not a real number", at: offset) }
        return .double(number)
    }

    func date(_ text: String, at offset: Int) throws(Failure) -> PropertyListValue {
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw fail("\"\(text)\" is not an ISO 8601 date", at: offset)
        }
        return .date(date)
    }

    func data(_ text: String, at offset: Int) throws(Failure) -> PropertyListValue {
        let compact = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact) else {
            throw fail("the <data> element is not valid Base64", at: offset)
        }
        return .data(data)
    }
}
