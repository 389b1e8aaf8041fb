// Shared by GirdersTremaTests and the `trema-roundtrip` fuzz target (which compiles it into the module): Foundation
// only, no import of GirdersTrema.
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Android `strings.xml` into name → displayed text (a `<plurals>` item as `name#quantity`), applying aapt's escapes (`\'`, `\"`, `\\`, `\n`,
/// `\t`, `\@`, `\?`, `\uXXXX`).
enum AndroidStrings {
    /// The XML parser failed without saying why.
    struct NotWellFormed: Error {}

    final class Reader: NSObject, XMLParserDelegate {
        let quotesDelimit: Bool
        var strings: [String: String] = [:]

        init(quotesDelimit: Bool) {
            self.quotesDelimit = quotesDelimit
        }

        private var name: String?
        private var buffer = ""

        private var plural: String?

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if element == "string" {
                name = attributes["name"]
                buffer = ""
            } else if element == "plurals" {
                plural = attributes["name"]
            } else if element == "item", let plural, let quantity = attributes["quantity"] {
                name = plural + "#" + quantity
                buffer = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            buffer += string
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if element == "string" || element == "item", let name {
                strings[name] = AndroidStrings.unescape(buffer, quotesDelimit: quotesDelimit)
            }
            if element == "plurals" { plural = nil }
            name = nil
        }
    }

    /// With `quotesDelimit` false, an unescaped `"` is an ordinary character (aapt2 would drop it and keep the
    /// white space it encloses).
    static func read(_ data: Data, quotesDelimit: Bool = true) throws -> [String: String] {
        let reader = Reader(quotesDelimit: quotesDelimit)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else { throw parser.parserError ?? NotWellFormed() }
        return reader.strings
    }

    /// The text aapt2 makes of a `<string>`'s character data: escapes decoded; runs of raw white space folded to
    /// one space and raw white space at either end dropped, except inside an unescaped pair of double quotes;
    /// escaped characters (`\u0020` among them) kept as they are.
    static func unescape(_ text: String, quotesDelimit: Bool = true) -> String {
        var characters: [(scalar: Unicode.Scalar, raw: Bool)] = []
        var iterator = Array(text.unicodeScalars).makeIterator()
        var quoted = false
        var lastWasRawSpace = false
        while let scalar = iterator.next() {
            if scalar == "\"", quotesDelimit {
                quoted.toggle()
                continue
            }
            if !quoted, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                if !lastWasRawSpace { characters.append((" ", true)) }
                lastWasRawSpace = true
                continue
            }
            lastWasRawSpace = false
            guard scalar == "\\", let next = iterator.next() else {
                characters.append((scalar, false))
                continue
            }
            switch next {
            case "n": characters.append(("\n", false))
            case "t": characters.append(("\t", false))
            case "u":
                let hex = String(String.UnicodeScalarView((0..<4).compactMap { _ in iterator.next() }))
                if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) {
                    characters.append((decoded, false))
                }
            default: characters.append((next, false))
            }
        }
        while characters.first?.raw == true { characters.removeFirst() }
        while characters.last?.raw == true { characters.removeLast() }
        return String(String.UnicodeScalarView(characters.map(\.scalar)))
    }
}
