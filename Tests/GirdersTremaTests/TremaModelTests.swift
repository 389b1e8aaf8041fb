import Foundation
import GirdersTrema
import Testing

struct TremaModelTests {
    @Test(arguments: [
        (#"a\nb"#, "a\nb"), (#"a\tb\rc"#, "a\tb\rc"), (#"one \\ backslash"#, #"one \ backslash"#),
        (#"\"quoted\" and \'single\'"#, #""quoted" and 'single'"#), (#"C:\Users\Public"#, #"C:\Users\Public"#),
        (#"trailing \"#, #"trailing \"#,), ("real\nline break", "real\nline break"), ("plain", "plain"),
    ])
    func valuesAreReadAsEscapedText(raw: String, meaning: String) {
        #expect(TremaEscapes.read(raw) == meaning)
        #expect(TremaValue(language: "de", status: .verified, text: raw).meaning(readingEscapes: false) == raw)
    }

    /// Reading escapes copies the runs between backslashes whole; it must give what reading byte by byte gives,
    /// wherever the backslashes fall (first, last, doubled, before a multi-byte character).
    @Test func readingEscapesGivesWhatReadingByteByByteGives() {
        func byteByByte(_ text: String) -> String {
            var result: [UInt8] = []
            var pending = false
            for byte in text.utf8 {
                if pending {
                    pending = false
                    switch byte {
                    case UInt8(ascii: "n"): result.append(0x0A)
                    case UInt8(ascii: "t"): result.append(0x09)
                    case UInt8(ascii: "r"): result.append(0x0D)
                    case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): result.append(byte)
                    default: result += [UInt8(ascii: "\\"), byte]
                    }
                } else if byte == UInt8(ascii: "\\") {
                    pending = true
                } else {
                    result.append(byte)
                }
            }
            if pending { result.append(UInt8(ascii: "\\")) }
            return String(decoding: result, as: UTF8.self)
        }
        let pieces = ["\\", "n", "t", "r", "\"", "'", "a", "é", "日", "🙂", " ", "x"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let text = (0..<length).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            #expect(TremaEscapes.read(text) == byteByByte(text), "\(text.debugDescription)")
        }
    }

    /// Values and texts keep their strings behind one shared reference: a change to one property of a copy
    /// changes only that property of that copy, and a new text gets its meaning read again.
    @Test func changingACopysPropertyLeavesTheOriginalAndTheOtherPropertiesAsTheyWere() {
        let location = SourceLocation(file: "a.trm", line: 3, column: 5)
        let value = TremaValue(language: "de", status: .initial, text: #"a\nb"#, location: location)
        var changed = value
        changed.text = #"c\td"#
        #expect(changed.meaning() == "c\td")
        #expect(changed.language == "de" && changed.location == location && changed.status == .initial)
        #expect(value.text == #"a\nb"# && value.meaning() == "a\nb")
        changed.language = "fr"
        changed.location = nil
        changed.status = .verified
        #expect(changed.text == #"c\td"# && changed.meaning() == "c\td" && changed.location == nil)
        #expect(value.language == "de" && value.status == .initial && value.location == location)

        let text = TremaText(key: "k", context: "ctx", values: [value], location: location)
        var other = text
        other.key = "k2"
        other.context = "other"
        other.values[0].text = "x"
        other.location = nil
        #expect(other.key == "k2" && other.context == "other" && other.values[0].meaning() == "x")
        #expect(text.key == "k" && text.context == "ctx" && text.values == [value] && text.location == location)
    }

    @Test(arguments: [
        "girdersswift-texts.trm", "trema-android-texts.trm", "trema-core-test-ISO.trm",
        "trema-maven-text-iso8859-1.trm",
        "golden/texts.trm",
    ])
    func writingAndParsingAgainGivesAnEqualDocument(_ name: String) throws {
        let document = try TremaDocument(contentsOf: try fixture(name))
        let again = try TremaDocument(data: document.xmlData(), file: "written.trm")
        #expect(again == document)
        #expect(try again.xmlData() == (try document.xmlData()))
    }

    @Test func hostileTextsSurviveARoundTripThroughTheWriter() throws {
        var document = hostileDocument()
        document.texts[0].context = "multi\nline & <context> with \"quotes\" and \r return"
        document.schemaLocation = SchemaLocation(
            attribute: "xsi:noNamespaceSchemaLocation", url: SchemaLocation.standard.url)
        document.texts.removeAll { $0.values.contains { $0.text.contains("\u{7}") } }
        let again = try TremaDocument(data: document.xmlData())
        #expect(again == document)
    }

    @Test func aControlCharacterXMLCannotCarryIsAnErrorNamingTheKey() {
        let document = TremaDocument(
            masterLanguage: "de",
            texts: [TremaText(key: "bell", values: [TremaValue(language: "de", status: .verified, text: "\u{7}")])])
        #expect(
            throws: TremaError.exportFailed(reason: "text 'bell' holds a character that XML 1.0 cannot carry")
        ) {
            try document.xmlData()
        }
    }

    /// Found by the `trema-roundtrip` fuzz target: a document built in code with a text without values was written
    /// into a file the parser refuses. Everything the parser refuses in such a document is refused here instead.
    @Test func whatTheParserRefusesIsAnErrorNamingTheKeyNotAFileThatCannotBeRead() {
        let value = TremaValue(language: "de", status: .verified, text: "x")
        let cases: [([TremaText], String)] = [
            ([TremaText(key: "empty", values: [])], "text 'empty' has no value"),
            ([TremaText(key: "", values: [value])], "a text has an empty key"),
            (
                [TremaText(key: "twice", values: [value]), TremaText(key: "twice", values: [value])],
                "the key 'twice' appears twice"
            ),
            ([TremaText(key: "double", values: [value, value])], "text 'double' has two values in 'de'"),
        ]
        for (texts, reason) in cases {
            #expect(throws: TremaError.exportFailed(reason: reason)) {
                try TremaDocument(masterLanguage: "de", texts: texts).xmlData()
            }
        }
    }

    @Test func aSecondDocumentOverridesValuesAndAddsKeys() throws {
        let first = try parse(
            tremaXML(
                """
                <text key="a"><context>first</context><value lang="de" status="verified">A</value><value lang="en" status="verified">A-en</value></text>
                <text key="b"><context/><value lang="de" status="verified">B</value></text>
                """))
        let second = try parse(
            tremaXML(
                """
                <text key="a"><context/><value lang="en" status="translated">A-en-2</value><value lang="fr" status="initial">A-fr</value></text>
                <text key="c"><context/><value lang="de" status="verified">C</value></text>
                """))
        let merged = first.overriding(with: second)
        #expect(merged.texts.map(\.key) == ["a", "b", "c"])
        #expect(merged.texts[0].context == "first")
        #expect(merged.texts[0].values.map(\.text) == ["A", "A-en-2", "A-fr"])
        #expect(merged.languages == ["de", "en", "fr"])
    }

    @Test func placeholdersAreScannedLikePrintf() {
        let kinds = PrintfPlaceholder.argumentKinds("%@ has %d items at %.2f, 100%% and %p and %lld")
        #expect(kinds == [1: .string, 2: .integer, 3: .double, 4: .integer])
        #expect(PrintfPlaceholder.scan("50% off").map(\.conversion) == ["o"])
        #expect(PrintfPlaceholder.scan("%").isEmpty && PrintfPlaceholder.scan("%z!").isEmpty)
    }

    /// Lint and the exporters read argument kinds and problems from bytes, without building placeholders; they
    /// must give what the scanned placeholders say, for texts built from the bytes placeholders are made of.
    @Test func argumentKindsAndProblemsAgreeWithTheScannedPlaceholders() {
        #expect(
            PrintfPlaceholder.problems(in: "é%1$@ and %1$d")
                == ["placeholder '%1$d' uses argument 1 as Int, an earlier one as String"])
        // Every later use is compared with the first, not with the one before it.
        #expect(
            PrintfPlaceholder.problems(in: "%1$@ %1$d %1$d %2$f %2$f %2$@")
                == [
                    "placeholder '%1$d' uses argument 1 as Int, an earlier one as String",
                    "placeholder '%1$d' uses argument 1 as Int, an earlier one as String",
                    "placeholder '%2$@' uses argument 2 as String, an earlier one as Double",
                ])
        #expect(PrintfPlaceholder.argumentKinds("%1$@ %1$d %3$f") == [1: .integer, 3: .double])
        #expect(
            PrintfPlaceholder.problems(in: "ü %100$d")
                == ["placeholder '%100$d' exceeds the limits (position 99, width and precision 1000)"])
        let pieces = ["%", "%", "$", "1", "2", "0", "9", ".", "l", "h", "d", "f", "@", "p", "s", " ", "é", "x", "1001"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...14, using: &generator)).map { _ in
                pieces.randomElement(using: &generator) ?? ""
            }.joined()
            var kinds: [Int: PrintfPlaceholder.Kind] = [:]
            var first: [Int: PrintfPlaceholder.Kind] = [:]
            var problems: [String] = []
            var next = 1
            for placeholder in PrintfPlaceholder.scan(text)
            where placeholder.kind != .percent && placeholder.kind != .pointer {
                guard placeholder.isWithinLimits else {
                    problems.append(
                        "placeholder '\(text[placeholder.range])' exceeds the limits (position 99, width and precision 1000)"
                    )
                    continue
                }
                let position = placeholder.position ?? next
                if placeholder.position == nil { next += 1 }
                kinds[position] = placeholder.kind
                if let earlier = first[position], earlier != placeholder.kind {
                    problems.append(
                        "placeholder '\(text[placeholder.range])' uses argument \(position) as \(placeholder.kind.rawValue), an earlier one as \(earlier.rawValue)"
                    )
                } else {
                    first[position] = placeholder.kind
                }
            }
            #expect(PrintfPlaceholder.argumentKinds(text) == kinds, "\(text)")
            #expect(PrintfPlaceholder.problems(in: text) == problems, "\(text)")
        }
    }

    /// The scan reads bytes by offset; the ranges it gives are still the string's, after characters of two, three
    /// and four bytes and combining marks, in a native string and in a substring's copy.
    @Test func placeholderRangesStayRightAfterMultiByteCharacters() {
        let text = "Grüße 👋🏽 e\u{301}%1$@ – %2$.2f%% ok %lld"
        let placeholders = PrintfPlaceholder.scan(text)
        #expect(placeholders.map { String(text[$0.range]) } == ["%1$@", "%2$.2f", "%%", "%lld"])
        #expect(placeholders.map(\.kind) == [.string, .double, .percent, .integer])
        #expect(placeholders.map(\.modifiers) == ["", ".2", "", "ll"])
        let copy = String("»" + text.dropFirst(5))
        #expect(PrintfPlaceholder.scan(copy).map { String(copy[$0.range]) } == ["%1$@", "%2$.2f", "%%", "%lld"])
    }

    /// What `trema convert` asks of lint (errors only, without describing each warning) is exactly the errors of a
    /// full lint, in the same order.
    @Test func lintWithoutWarningsFindsTheSameErrors() throws {
        let document = try TremaDocument(
            data: Data(
                tremaXML(
                    """
                    <text key="a.b"><context/><value lang="de" status="initial">%@ hat %d</value><value lang="en" status="verified">%d has %@</value></text>
                    <text key="a_b"><context/><value lang="de" status="verified">%1$@ %1$d %9999d</value></text>
                    <text key="n#one"><context/><value lang="de" status="verified">ein</value></text>
                    """
                ).utf8))
        let full = TremaLinter.lint(document)
        #expect(full.contains { $0.severity == .warning })
        #expect(full.filter { $0.severity == .error }.count >= 3)
        #expect(TremaLinter.lint(document, android: true, warnings: false) == full.filter { $0.severity == .error })
    }
}

/// Issue 34's findings on the writer: whitespace in attributes, and characters XML 1.0 cannot carry anywhere.
struct TremaWriterRoundTripTests {
    @Test func aTabOrLineFeedInAKeyOrLanguageSurvivesTheRoundTrip() throws {
        // The fuzzer's smallest input: a key that is one tab, which the writer put raw into key="..." and the parser
        // (rightly: XML normalises white space in attribute values) read back as a space.
        let smallest = try TremaDocument(
            data: Data(
                #"<trema masterLang="a"><text key="&#9;"><context/><value lang="a" status="initial"/></text></trema>"#
                    .utf8))
        #expect(smallest.texts.first?.key == "\t")
        let again = try TremaDocument(data: smallest.xmlData())
        #expect(again == smallest)
        // With a key "a b" beside "a\nb", the rewritten file held a duplicate key and no longer parsed.
        let document = TremaDocument(
            masterLanguage: "de",
            texts: ["a\nb", "a b", "tab\tkey", " lead and trail ", "cr\rlf\r\n"].map { key in
                TremaText(key: key, values: [TremaValue(language: "de", status: .verified, text: "x")])
            })
        #expect(try TremaDocument(data: document.xmlData()) == document)
    }

    @Test func charactersXMLCannotCarryAnywhereAreAnErrorNamingTheKey() {
        for (key, text, language) in [
            ("nonchar", "a\u{FFFE}b", "de"), ("nonchar-2", "\u{FFFF}", "de"), ("lang", "x", "d\u{1}e"),
        ] {
            let document = TremaDocument(
                masterLanguage: "de",
                texts: [TremaText(key: key, values: [TremaValue(language: language, status: .verified, text: text)])])
            #expect(throws: TremaError.self, "\(key)") { try document.xmlData() }
            do {
                _ = try document.xmlData()
            } catch {
                #expect("\(error)".contains("'\(key)'"), "\(error)")
            }
        }
    }
}
