import Foundation
import Testing

@testable import GirdersTrema

/// A large file is read in parts at once (one per core); every part must read what one reading reads, and any
/// file whose parts could disagree must be read in one piece.
struct TremaPartedParseTests {
    /// A document of `count` texts, with CRLF line ends when asked, a comment and CDATA among them.
    static func document(texts count: Int, lineEnd: String = "\n", prefix: String = "") -> String {
        var xml = prefix + "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\(lineEnd)<trema masterLang=\"de\">\(lineEnd)"
        for index in 0..<count {
            xml += "  <text key=\"k\(index)\">\(lineEnd)    <context>ctx \(index) &amp; more</context>\(lineEnd)"
            xml += "    <value lang=\"de\" status=\"verified\">Wert \(index)\(lineEnd)zwei</value>\(lineEnd)"
            if index % 7 == 0 { xml += "    <!-- note \(index) -->\(lineEnd)" }
            xml +=
                "    <value lang=\"en\" status=\"initial\"><![CDATA[Value <\(index)>]]></value>\(lineEnd)  </text>\(lineEnd)"
        }
        return xml + "</trema>\(lineEnd)"
    }

    /// What reading `xml` in `parts` parts gives: the document with every location, or the error's text.
    static func outcome(_ xml: String, parts: Int) -> String {
        do {
            let document = try TremaDocument(utf8: Array(xml.utf8), file: "t.trm", parts: parts)
            var lines = ["master \(document.masterLanguage) \(String(describing: document.schemaLocation))"]
            for text in document.texts {
                lines.append("\(text.key) \(text.context) \(String(describing: text.location))")
                for value in text.values {
                    lines.append(
                        "  \(value.language) \(value.status) \(value.text) \(String(describing: value.location))")
                }
            }
            return lines.joined(separator: "\n")
        } catch {
            return "error: \(error)"
        }
    }

    @Test(arguments: ["\n", "\r\n"])
    func aFileReadInPartsGivesEveryTextAndLocationOfOneReading(lineEnd: String) {
        let xml = Self.document(texts: 200, lineEnd: lineEnd, prefix: "\u{FEFF}")
        let whole = Self.outcome(xml, parts: 1)
        #expect(!whole.hasPrefix("error"), "\(whole.prefix(300))")
        for parts in 2...7 {
            #expect(Self.outcome(xml, parts: parts) == whole, "\(parts) parts")
        }
        #expect(TremaPartedParse.boundaries(in: Array(xml.utf8), parts: 4).count == 4)
    }

    /// A `<text` at the start of a line that is not between two texts: every split there must fall back to one
    /// reading, which reports the same document or the same error.
    @Test(arguments: [
        // Inside a comment, a processing instruction and CDATA: the part before ends unterminated.
        ("  <!--\n  <text key=\"c\">\n  -->\n", "comment"),
        ("  <?pi\n  <text key=\"p\"> ?>\n", "processing instruction"),
        (
            "  <text key=\"x\"><context/><value lang=\"de\" status=\"initial\"><![CDATA[a\n  <text key=\"y\">]]></value></text>\n",
            "CDATA"
        ),
        // Inside a text: the part before ends with <text> open, which one reading reports as misplaced.
        ("  <text key=\"x\"><context/>\n  <text key=\"y\"><context/></text></text>\n", "nested text"),
        // A text never closed: the next part alone would read well, and the text would be lost.
        ("  <text key=\"x\"><context/>\n", "unclosed text"),
        // After the root is closed: a second root element.
        ("</trema>\n  <text key=\"z\"><context/></text>\n<trema masterLang=\"de\">\n", "second root"),
        // A key already used in another part.
        ("  <text key=\"k1\"><context/><value lang=\"de\" status=\"initial\">again</value></text>\n", "duplicate key"),
        // A broken value in a later part: the error names its line as one reading does.
        ("  <text key=\"b\"><context/><value lang=\"de\">no status</value></text>\n", "missing status"),
    ])
    func aSplitThatIsNotBetweenTwoTextsGivesWhatOneReadingGives(inserted: String, what: String) {
        let clean = Self.document(texts: 24)
        let lines = clean.split(separator: "\n", omittingEmptySubsequences: false)
        // Inserted before every text, so that some split in 2 to 5 parts falls right after the insertion.
        for position in lines.indices where lines[position].hasPrefix("  <text") {
            let xml = (lines[..<position] + [Substring(inserted.dropLast())] + lines[position...])
                .joined(separator: "\n")
            let whole = Self.outcome(xml, parts: 1)
            for parts in 2...5 {
                #expect(
                    Self.outcome(xml, parts: parts) == whole, "\(what), \(parts) parts, before line \(position + 1)")
            }
        }
    }

    @Test func aFileWithoutLineBreaksIsReadInOnePiece() {
        let xml = Self.document(texts: 50).replacingOccurrences(of: "\n", with: " ")
        #expect(TremaPartedParse.boundaries(in: Array(xml.utf8), parts: 4).count == 1)
        #expect(Self.outcome(xml, parts: 4) == Self.outcome(xml, parts: 1))
    }

    @Test func aSmallFileIsNotSplit() {
        #expect(TremaPartedParse.partCount(forBytes: 100_000) <= 1)
    }
}
