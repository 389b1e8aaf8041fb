import Foundation
import GirdersTrema
import Testing

struct TremaParserTests {
    @Test(arguments: [
        "girdersswift-texts.trm", "trema-android-texts.trm", "trema-core-test-ISO.trm", "trema-core-test-UTF-8.trm",
        "trema-maven-text-iso8859-1.trm",
    ])
    func everySampleFromNetcetera(_ name: String) throws {
        let document = try TremaDocument(contentsOf: try fixture(name))
        #expect(!document.texts.isEmpty)
        #expect(document.texts.allSatisfy { !$0.values.isEmpty })
    }

    @Test func theGirdersSwiftSampleReadsWithItsSchemaLocation() throws {
        let document = try TremaDocument(contentsOf: try fixture("girdersswift-texts.trm"))
        #expect(document.masterLanguage == "de")
        #expect(document.texts.map(\.key) == ["name", "refresh"])
        #expect(
            document.text(forKey: "refresh")?.value(for: "de")
                == TremaValue(language: "de", status: .translated, text: "New Value"))
        #expect(document.schemaLocation == .standard)
    }

    @Test func isoAndUTF8FilesGiveTheSameCharacters() throws {
        let iso = try TremaDocument(contentsOf: try fixture("trema-core-test-ISO.trm"))
        let utf8 = try TremaDocument(contentsOf: try fixture("trema-core-test-UTF-8.trm"))
        #expect(iso.masterLanguage == "jp")
        let isoText = iso.texts.flatMap(\.values).map(\.text).joined()
        #expect(isoText.contains { !$0.isASCII })
        #expect(iso.texts.map(\.key) == utf8.texts.map(\.key))
        let maven = try TremaDocument(contentsOf: try fixture("trema-maven-text-iso8859-1.trm"))
        #expect(maven.schemaLocation == nil)
        #expect(maven.texts.flatMap(\.values).contains { $0.text.contains { "äöüéàè".contains($0) } })
    }

    @Test(arguments: [
        #"noNamespaceSchemaLocation="http://software.group.nca/trema/schema/trema-1.0.xsd""#,
        #"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="http://software.group.nca/trema/schema/trema-1.0.xsd""#,
        #"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://raw.githubusercontent.com/netceteragroup/trema-core/master/src/main/resources/trema-1.0.xsd""#,
        #"noNamespaceSchemaLocation="https://github.com/netceteragroup/trema-core/blob/master/src/main/resources/trema-1.0.xsd""#,
        "",
    ])
    func everyKnownSchemaLocationSpellingIsAccepted(_ attribute: String) throws {
        let document = try parse(
            "<trema masterLang=\"de\" \(attribute)><text key=\"a\"><context/><value lang=\"de\" status=\"verified\">A</value></text></trema>"
        )
        #expect(document.texts.count == 1)
        #expect((document.schemaLocation != nil) == !attribute.isEmpty)
    }

    @Test func textAndEntitiesAndCDATAAreReadAsXMLDefinesThem() throws {
        let document = try parse(
            tremaXML(
                """
                  <text key="k">
                    <context>a &lt;b&gt; &amp; c</context>
                    <value lang="de" status="special">x &#x263A; <![CDATA[<raw>]]> y</value>
                  </text>
                """))
        #expect(document.texts[0].context == "a <b> & c")
        #expect(document.texts[0].values[0].text == "x ☺ <raw> y")
        #expect(document.texts[0].values[0].status == .special)
    }

    struct Case: Sendable, CustomStringConvertible {
        let xml: String
        let line: Int
        let message: String
        var description: String { message }
    }

    /// Text `a` with values in `l0` to `l19` on lines 4 to 23, then one in `repeated` on line 24.
    static func twentyLanguages(then repeated: String) -> String {
        tremaXML(
            "<text key=\"a\"><context/>\n"
                + (0..<20).map { "<value lang=\"l\($0)\" status=\"verified\">A</value>\n" }.joined()
                + "<value lang=\"\(repeated)\" status=\"verified\">B</value>\n</text>")
    }

    static let ruleViolations: [Case] = [
        Case(
            xml: "<?xml version=\"1.0\"?>\n<trema>\n</trema>", line: 2, message: "<trema> needs a masterLang attribute"),
        Case(
            xml: "<?xml version=\"1.0\"?>\n<texts masterLang=\"de\"/>", line: 2,
            message: "the root element must be <trema>, not <texts>"),
        Case(
            xml: tremaXML(
                "<text key=\"a\"><context/><value lang=\"de\" status=\"verified\">A</value></text>\n<text key=\"a\"><context/><value lang=\"de\" status=\"verified\">B</value></text>"
            ), line: 4, message: "duplicate key 'a' (first at line 3)"),
        Case(
            xml: tremaXML("<text><context/><value lang=\"de\" status=\"verified\">A</value></text>"), line: 3,
            message: "<text> needs a key attribute"),
        Case(
            xml: tremaXML("<text key=\"\"><context/><value lang=\"de\" status=\"verified\">A</value></text>"), line: 3,
            message: "the key of <text> is empty"),
        Case(
            xml: tremaXML("<text key=\"a\">\n<value lang=\"de\" status=\"verified\">A</value></text>"), line: 4,
            message: "text 'a' needs a <context> before its values"),
        Case(
            xml: tremaXML(
                "<text key=\"a\"><context/>\n<context/><value lang=\"de\" status=\"verified\">A</value></text>"),
            line: 4, message: "text 'a' has more than one <context>"),
        Case(xml: tremaXML("<text key=\"a\"><context/></text>"), line: 3, message: "text 'a' has no value"),
        Case(
            xml: tremaXML("<text key=\"a\"><context/><value status=\"verified\">A</value></text>"), line: 3,
            message: "a value of text 'a' has no lang attribute"),
        Case(
            xml: tremaXML(
                "<text key=\"a\"><context/><value lang=\"de\" status=\"verified\">A</value>\n<value lang=\"de\" status=\"initial\">B</value></text>"
            ), line: 4, message: "text 'a' has two values for 'de' (first at line 3)"),
        // More languages than are looked through one by one (16): the twentieth repeats the eighteenth, the
        // twenty-first the second.
        Case(
            xml: twentyLanguages(then: "l17"), line: 24, message: "text 'a' has two values for 'l17' (first at line 21)"
        ),
        Case(xml: twentyLanguages(then: "l1"), line: 24, message: "text 'a' has two values for 'l1' (first at line 5)"),
        Case(
            xml: tremaXML("<text key=\"a\"><context/><value lang=\"de\">A</value></text>"), line: 3,
            message: "the 'de' value of text 'a' has no status attribute"),
        Case(
            xml: tremaXML("<text key=\"a\"><context/><value lang=\"de\" status=\"done\">A</value></text>"), line: 3,
            message: "status 'done' of text 'a' (de) is not initial, translated, verified or special"),
        Case(
            xml: tremaXML(
                "<text key=\"a\"><context/><value lang=\"de\" status=\"verified\">A<b>bold</b></value></text>"),
            line: 3, message: "unexpected element <b> inside <value>"),
        Case(
            xml: tremaXML("<text key=\"a\">stray<context/><value lang=\"de\" status=\"verified\">A</value></text>"),
            line: 3, message: "unexpected text 'stray' inside <text>"),
        Case(
            xml: tremaXML("<text key=\"a\" id=\"1\"><context/><value lang=\"de\" status=\"verified\">A</value></text>"),
            line: 3, message: "unexpected attribute 'id' on <text>"),
        Case(
            xml: "<trema masterLang=\"de\" noNamespaceSchemaLocation=\"http://example.com/other.xsd\"/>", line: 1,
            message:
                "unknown schema location 'http://example.com/other.xsd'; expected trema-1.0.xsd at software.group.nca or netceteragroup/trema-core"
        ),
        Case(
            xml: "<?xml version=\"1.0\" encoding=\"UTF-16\"?><trema masterLang=\"de\"/>", line: 1,
            message: "unsupported encoding UTF-16; trema files are UTF-8 or ISO-8859-1"),
        Case(
            xml: tremaXML("<text key=\"a\"><context/><value lang=\"de\" status=\"verified\">A</text>"), line: 3,
            message: "not well-formed XML"),
    ]

    @Test(arguments: ruleViolations)
    func eachRuleViolationIsReportedWithItsLineAndColumn(_ rule: Case) {
        let found = violations(rule.xml)
        let match = found.first { $0.message.hasPrefix(rule.message) }
        #expect(match != nil, "got \(found)")
        #expect(match?.location.line == rule.line)
        #expect((match?.location.column ?? 0) >= 1)
        #expect(match?.location.file == "test.trm")
        #expect(match.map { "\($0)".hasPrefix("test.trm:\(rule.line):") } == true)
    }

    static let malformed: [Case] = [
        Case(
            xml: "<trema masterLang=\"de\">\n  <text key=\"a\">\n</trema>", line: 3,
            message: "not well-formed XML: </trema> does not close <text>"),
        Case(
            xml: "<trema masterLang=\"de\">\n<text key=\"a\">", line: 2,
            message: "not well-formed XML: <text> is not closed at the end of the file"),
        Case(
            xml: "<trema masterLang=\"de\">&nbsp;</trema>", line: 1,
            message: "not well-formed XML: unknown or invalid reference &nbsp;"),
        Case(
            xml: "<trema masterLang=\"de\">&#1;</trema>", line: 1,
            message: "not well-formed XML: unknown or invalid reference &#1;"),
        Case(
            xml: "<trema masterLang=\"de\">a & b</trema>", line: 1,
            message: "not well-formed XML: '&' must start an entity reference"),
        Case(
            xml: "<!DOCTYPE trema [<!ENTITY x \"y\">]>\n<trema masterLang=\"de\"/>", line: 1,
            message: "not well-formed XML: DTDs and declarations are not allowed"),
        Case(
            xml: "<trema masterLang=\"d<e\"/>", line: 1,
            message: "not well-formed XML: '<' is not allowed in an attribute value"),
        Case(
            xml: "<trema masterLang=\"de\" masterLang=\"en\"/>", line: 1,
            message: "not well-formed XML: attribute masterLang appears twice on <trema>"),
        Case(
            xml: "<trema masterLang=de/>", line: 1,
            message: "not well-formed XML: the value of attribute masterLang must be quoted"),
        Case(
            xml: "<trema masterLang=\"de\"/>\n<trema masterLang=\"de\"/>", line: 2,
            message: "not well-formed XML: a second root element"),
        Case(
            xml: "stray\n<trema masterLang=\"de\"/>", line: 1,
            message: "not well-formed XML: text outside the root element"),
        Case(
            xml: "<trema masterLang=\"de\">\n\n<!-- open\n</trema>", line: 3,
            message: "not well-formed XML: unterminated comment"),
        Case(
            xml: "<trema masterLang=\"de\">\u{1}</trema>", line: 1,
            message: "not well-formed XML: control character U+0001 is not allowed"),
        // Markup told apart by the byte after '<', down to a '<' that is the file's last byte.
        Case(
            xml: "<trema masterLang=\"de\">\n<?pi unterminated", line: 2,
            message: "not well-formed XML: unterminated processing instruction"),
        Case(xml: "<trema masterLang=\"de\">\n<", line: 2, message: "not well-formed XML: expected a name"),
        Case(
            xml: "<trema masterLang=\"de\">\n<!ELEMENT x ANY>", line: 2,
            message: "not well-formed XML: DTDs and declarations are not allowed"),
        // Text and an attribute value that run to the last byte of the file, where the scan for their end stops.
        Case(
            xml:
                "<trema masterLang=\"de\">\n<text key=\"a\"><context/>\n\t<value lang=\"de\" status=\"initial\">to the end\n",
            line: 4,
            message: "not well-formed XML: <value> is not closed at the end of the file"),
        Case(
            xml: "<trema masterLang=\"de\n", line: 2,
            message: "not well-formed XML: unterminated attribute value"),
    ]

    @Test(arguments: malformed)
    func malformedXMLIsReportedWithItsLineAndColumn(_ rule: Case) {
        let found = violations(rule.xml)
        #expect(found.count == 1, "got \(found)")
        #expect(found.first?.message.hasPrefix(rule.message) == true, "got \(found)")
        #expect(found.first?.location.line == rule.line)
    }

    @Test func invalidUTF8IsReportedWhereItIs() throws {
        var data = Data(
            tremaXML("<text key=\"a\"><context/><value lang=\"de\" status=\"verified\">X</value></text>").utf8)
        let position = try #require(data.firstIndex(of: UInt8(ascii: "X")))
        data[position] = 0xFF
        #expect(
            throws: TremaError.invalidDocument(
                file: "bad.trm",
                violations: [
                    TremaError.Violation(
                        location: SourceLocation(file: "bad.trm", line: 3, column: 60),
                        message: "invalid UTF-8; the XML declaration says UTF-8")
                ])
        ) {
            try TremaDocument(data: data, file: "bad.trm")
        }
    }

    @Test func carriageReturnsAreNormalisedAsXMLRequiresAndReferencesKeepThem() throws {
        let document = try parse(
            "<trema masterLang=\"de\">\r\n<text key=\"a\"><context>one\r\ntwo\rthree</context><value lang=\"de\" status=\"verified\">x&#13;y</value></text></trema>"
        )
        #expect(document.texts[0].context == "one\ntwo\nthree")
        #expect(document.texts[0].values[0].text == "x\ry")
    }

    @Test func allViolationsOfAFileAreReportedTogether() {
        let found = violations(
            tremaXML(
                """
                <text key="a"><context/><value lang="de" status="bad">A</value></text>
                <text key="a"><context/><value lang="de" status="verified">B</value><value lang="de" status="verified">C</value></text>
                """))
        #expect(found.count == 3)
    }

    @Test func aMissingFileIsACannotReadError() {
        #expect(throws: TremaError.self) { try TremaDocument(contentsOf: URL(fileURLWithPath: "/no/such/file.trm")) }
    }
}
