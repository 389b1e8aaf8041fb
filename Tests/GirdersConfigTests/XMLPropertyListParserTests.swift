import Foundation
import GirdersSupport
import Testing

@testable import GirdersConfig

/// Our XML property-list parser against hand-written documents and against Foundation's own parser.
struct XMLPropertyListParserTests {
    func parse(_ body: String, prolog: Bool = true) throws -> ConfigValue {
        let header = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

            """
        return ConfigValue(try XMLPropertyListParser.parse(Data(((prolog ? header : "") + body).utf8)))
    }

    @Test func entitiesCharacterReferencesAndCDATAAreDecoded() throws {
        let value = try parse(
            "<plist><dict><key>a&amp;b</key><string>&lt;x&gt; &quot;q&quot; &apos;s&apos; &#65;&#x263A; "
                + "<![CDATA[<raw> & stuff]]></string></dict></plist>")
        #expect(value == ["a&b": "<x> \"q\" 's' A☺ <raw> & stuff"])
    }

    @Test func emptyElementsAndBooleansInBothForms() throws {
        #expect(
            try parse(
                "<plist><dict><key>s</key><string/><key>d</key><dict/><key>a</key><array/><key>t</key><true/>"
                    + "<key>f</key><false></false></dict></plist>") == [
                    "s": "", "d": [:], "a": [], "t": true, "f": false,
                ])
    }

    @Test func commentsAndWhiteSpaceAnywhereBetweenElementsAreIgnored() throws {
        let value = try parse(
            """
            <!-- leading -->
            <plist version="1.0">
              <!-- before -->
              <dict>
                <key>n</key> <!-- between --> <integer> 42 </integer>
                <key>r</key><real>-1.5e3</real>
                <key>h</key><integer>0x1F</integer>
                <key>d</key><date>2020-01-02T03:04:05Z</date>
                <key>b</key><data>
                  AAEC
                  AwQ=
                </data>
              </dict>
            </plist>
            <!-- trailing -->
            """)
        #expect(
            value == [
                "n": 42, "r": -1500.0, "h": 31, "d": .date(Date(timeIntervalSince1970: 1_577_934_245)),
                "b": .data(Data([0, 1, 2, 3, 4])),
            ])
    }

    @Test func aByteOrderMarkAndAMissingPlistWrapperAreAccepted() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data("<dict><key>k</key><string>v</string></dict>".utf8)
        #expect(try ConfigValue(XMLPropertyListParser.parse(data)) == ["k": "v"])
    }

    @Test(arguments: [
        ("<plist><dict><key>k</key><string>v</dict></plist>", "expected </string>, found </dict>"),
        ("<plist><dict><key>k</key><string>a<b/>c</string></dict></plist>", "unexpected markup inside <string>"),
        ("<plist><dict><key>k</key></dict></plist>", "the key \"k\" has no value"),
        ("<plist><dict><string>v</string></dict></plist>", "expected <key> in <dict>, found <string>"),
        ("<plist><dict><key>k</key><integer>1.5</integer></dict></plist>", "\"1.5\" is not an integer"),
        ("<plist><dict><key>k</key><real>fast</real></dict></plist>", "\"fast\" is not a real number"),
        ("<plist><dict><key>k</key><date>yesterday</date></dict></plist>", "\"yesterday\" is not an ISO 8601 date"),
        ("<plist><dict><key>k</key><data>!!!</data></dict></plist>", "the <data> element is not valid Base64"),
        ("<plist><dict><key>k</key><widget/></dict></plist>", "unknown element <widget>"),
        ("<plist><dict><key>k</key><string>&bogus;</string></dict></plist>", "unknown entity &bogus;"),
        // A character XML 1.0 forbids is refused by reference too, as Foundation's parser refuses it.
        ("<plist><dict><key>k</key><string>&#1;</string></dict></plist>", "unknown entity &#1;"),
        ("<plist><dict><key>k</key><string>&#xFFFE;</string></dict></plist>", "unknown entity &#xFFFE;"),
        ("<plist><dict></dict></plist><dict/>", "unexpected content after the property list"),
        ("<plist><array><string>x</string></plist>", "expected </array>, found </plist>"),
    ])
    func malformedDocumentsAreRejectedWithAReason(document: String, reason: String) {
        #expect {
            try parse(document)
        } throws: { error in
            (error as? XMLPropertyListParser.Failure)?.reason == reason
        }
    }

    @Test func errorsCarryTheLineAndColumn() throws {
        let text = "<plist>\n<dict>\n  <key>a</key>\n  <integer>x</integer>\n</dict>\n</plist>\n"
        let error = try #require(throws: ConfigurationError.self) {
            try Configuration(baseData: Data(text.utf8))
        }
        guard case .malformedPropertyList(_, let line, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(line == 4)
        #expect(reason == "column 12: \"x\" is not an integer", "the column of the bad value")
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() {
        let document = "<plist>" + String(repeating: "<array>", count: 100_000) + "</plist>"
        #expect(throws: XMLPropertyListParser.Failure.self) { try parse(document) }
    }

    @Test func foundationBooleanNumbersBecomeBooleansAndSmallIntegersStayIntegers() {
        #expect(ConfigValue(propertyListValue: NSNumber(value: true)) == .bool(true))
        #expect(ConfigValue(propertyListValue: NSNumber(value: false)) == .bool(false))
        #expect(ConfigValue(propertyListValue: NSNumber(value: Int8(1))) == .integer(1))
        #expect(ConfigValue(propertyListValue: NSNumber(value: 0)) == .integer(0))
        #expect(ConfigValue(propertyListValue: NSNumber(value: 2.5)) == .double(2.5))
        #expect(ConfigValue(propertyListValue: true) == .bool(true))
    }

    @Test func randomDocumentsParseExactlyAsFoundationParsesThem() throws {
        var generator = SeededGenerator(seed: 2026)
        for round in 0..<200 {
            let root = randomDictionary(depth: 0, using: &generator)
            let data = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
            let foundation = try #require(
                ConfigValue(propertyListValue: try PropertyListSerialization.propertyList(from: data, format: nil)))
            #expect(try ConfigValue(XMLPropertyListParser.parse(data)) == foundation, "round \(round)")
        }
    }

    func randomDictionary(depth: Int, using generator: inout SeededGenerator) -> [String: Any] {
        var values: [String: Any] = [:]
        for index in 0..<Int.random(in: 0...6, using: &generator) {
            values["k\(index) <&>\"' é 🌍"] = randomValue(depth: depth + 1, using: &generator)
        }
        return values
    }

    func randomValue(depth: Int, using generator: inout SeededGenerator) -> Any {
        switch Int.random(in: 0..<(depth > 3 ? 6 : 8), using: &generator) {
        case 0: return "text \(Int.random(in: 0...999, using: &generator)) <tag> & \"quotes\" ]]> \t\n 世界"
        case 1: return Int.random(in: Int.min...Int.max, using: &generator)
        case 2: return Double.random(in: -1e12...1e12, using: &generator)
        case 3: return Bool.random(using: &generator)
        case 4:
            return Date(
                timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator)))
        case 5:
            return Data(
                (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
        case 6:
            return (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                randomValue(depth: depth + 1, using: &generator)
            }
        default: return randomDictionary(depth: depth, using: &generator)
        }
    }
}
