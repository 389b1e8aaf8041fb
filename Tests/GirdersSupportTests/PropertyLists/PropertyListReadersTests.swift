import Foundation
import GirdersSupport
import Testing

/// GirdersSupport's two property-list readers against files Foundation's `PropertyListSerialization` writes: the
/// same tree from XML and from binary, each format told apart by its first bytes, and a broken document's offset.
struct PropertyListReadersTests {
    /// A document with every kind of value, nested.
    static var document: [String: Any] {
        [
            "name": "Girders", "count": 3, "ratio": 0.5, "enabled": true, "blob": Data([0, 1, 2, 255]),
            "tags": ["a", "ü", "日本"], "nested": ["deep": ["level": 2]],
        ]
    }

    static let expected: PropertyListValue = .dictionary([
        "name": .string("Girders"), "count": .integer(3), "ratio": .double(0.5), "enabled": .bool(true),
        "blob": .data(Data([0, 1, 2, 255])), "tags": .array([.string("a"), .string("ü"), .string("日本")]),
        "nested": .dictionary(["deep": .dictionary(["level": .integer(2)])]),
    ])

    @Test func foundationsXMLAndBinaryFilesReadAsTheSameTree() throws {
        let xml = try PropertyListSerialization.data(fromPropertyList: Self.document, format: .xml, options: 0)
        let binary = try PropertyListSerialization.data(fromPropertyList: Self.document, format: .binary, options: 0)
        #expect(PropertyListFormat(of: xml) == .xml)
        #expect(PropertyListFormat(of: binary) == .binary)
        #expect(try XMLPropertyListParser.parse(xml) == Self.expected)
        #expect(try BinaryPropertyListReader.parse(binary) == Self.expected)
    }

    @Test func textThatIsNeitherIsTheOldStyleFormat() {
        #expect(PropertyListFormat(of: Data("\"key\" = \"value\";".utf8)) == .text)
        #expect(PropertyListFormat(of: Data("\u{FEFF}  <plist/>".utf8)) == .xml)
    }

    @Test func aBrokenXMLDocumentFailsAtItsOffsetWhichIsALineAndColumn() throws {
        let text = "<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <integer>x1</integer>\n</dict>\n</plist>"
        let data = Data(text.utf8)
        do {
            _ = try XMLPropertyListParser.parse(data)
            Issue.record("a non-number <integer> was read")
        } catch {
            let location = XMLPropertyListParser.location(of: error.offset, in: data)
            #expect(location.line == 4, "\(error.reason) at \(location)")
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func aTruncatedBinaryFileFailsWithAnOffsetInsideIt() throws {
        let binary = try PropertyListSerialization.data(fromPropertyList: Self.document, format: .binary, options: 0)
        let cut = binary.prefix(binary.count - 9)
        #expect(throws: BinaryPropertyListReader.Failure.self) { try BinaryPropertyListReader.parse(Data(cut)) }
    }
}
