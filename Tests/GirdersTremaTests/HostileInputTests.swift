#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersSupport
import Testing

@testable import GirdersTrema

/// Trema files and options written by an attacker: nothing becomes code, nothing lands outside `--out`, nothing
/// crashes, and a few bytes never cost megabytes.
struct HostileInputTests {
    /// Literals and doc comments of text without an unsafe byte are the text itself, found by one look at the
    /// bytes; every scalar that must be escaped is caught by that look, alone and between other text.
    @Test func everyScalarThatGeneratedSourceMustEscapeIsEscaped() {
        #expect(SwiftSourceExporter.literal("plain é 日本") == "\"plain é 日本\"")
        #expect(SwiftSourceExporter.commentLines("plain é 日本") == ["plain é 日本"])
        let unsafe = (0..<0x20).map { $0 } + [0x7F] + Array(0x80...0x9F) + [0x2028, 0x2029]
        for value in unsafe {
            let scalar = String(Character(Unicode.Scalar(UInt32(value)) ?? "?"))
            for text in [scalar, "a\(scalar)b", "é\(scalar)"] {
                let literal = SwiftSourceExporter.literal(text)
                #expect(!literal.unicodeScalars.contains { $0.value == UInt32(value) }, "literal of U+\(value)")
                let comment = SwiftSourceExporter.commentLines(text).joined()
                #expect(
                    !comment.unicodeScalars.contains { $0.value == UInt32(value) && value != 9 },
                    "comment of U+\(value)")
            }
        }
        for quote in ["\"", "\\"] {
            #expect(SwiftSourceExporter.literal("a\(quote)b") == "\"a\\\(quote)b\"")
        }
    }

    /// A document with one text per `(key, context, master value)`, master language `en`.
    func document(_ texts: [(key: String, context: String, value: String)]) -> TremaDocument {
        TremaDocument(
            masterLanguage: "en",
            texts: texts.map {
                TremaText(
                    key: $0.key, context: $0.context,
                    values: [TremaValue(language: "en", status: .verified, text: $0.value)])
            })
    }

    func swiftSource(_ document: TremaDocument, _ options: ExportOptions = ExportOptions()) throws -> String {
        try #require(try TremaExportFormat.swift.export(document, options: options).first).text
    }

    @Test func aLineTerminatorInAContextOrValueCannotEndTheDocComment() async throws {
        let injected = "let pwned = 1"
        var texts: [(key: String, context: String, value: String)] = []
        for (index, terminator) in ["\r", "\n", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}"]
            .enumerated()
        {
            texts.append(("context\(index)", "ok\(terminator)\(injected)", "x"))
            texts.append(("value\(index)", "", "ok\(terminator)\(injected)"))
        }
        let source = try swiftSource(document(texts))
        for line in source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        where line.contains(injected) {
            #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("///"), "code outside a comment: \(line)")
        }
        #expect(!source.unicodeScalars.contains { $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x0B })
        let check = try await SwiftSyntaxCheck.typechecks(source)
        #expect(check.ok, "\(check.messages)")
    }

    @Test func generatedSwiftFromAHostileCorpusCompilesAgainstGirdersTrema() async throws {
        let hostile = document([
            ("translate", "a key that shadows the global call", "x"),
            ("del\u{7F}key", "", "DEL in the key"),
            ("c1\u{85}\u{9B}key", "C1 \u{9B}[2J controls", "value\u{1B}[31m"),
            ("quote\"key\\", "*/ /* comment", "%@ and %1$@ and %d"),
            ("positions", "", "%1$@ %99$d"),
            ("huge", "", "%999999$d and %999999999d"),
            ("GirdersTrema", "", "named like the module"),
        ])
        var options = ExportOptions()
        options.sourceName = "evil\nimport Foundation\r\u{2028}name.trm"
        let source = try swiftSource(hostile, options)
        #expect(source.split(whereSeparator: \.isNewline).allSatisfy { !$0.hasPrefix("import Foundation") })
        #expect(source.utf8.count < 20_000, "a placeholder beyond the limits must not become parameters")
        #expect(source.contains("GirdersTrema.translate(\"translate\")"))
        let check = try await SwiftSyntaxCheck.typechecks(source)
        #expect(check.ok, "\(check.messages)")
    }

    @Test func embeddedTablesFromAHostileCorpusCompileAndKeepADuplicateKeyOnce() async throws {
        let hostile = document([
            ("translator", "collides with the generated translator", "x"),
            ("language", "collides with Localized.language", "y"),
            ("quote\"key\\", "*/ /* comment\u{2028}import Foundation", "\"); let pwned = 1; (\"\u{85}\u{2028}"),
            ("twice", "", "first"),
            ("twice", "", "second"),  // a dictionary literal with a repeated key traps when the program starts
            ("huge", "", "%999999$d and %1$@"),
        ])
        var options = ExportOptions(embedsTables: true)
        options.sourceName = "evil\nimport Foundation.trm"
        let source = try swiftSource(hostile, options)
        #expect(source.split(whereSeparator: \.isNewline).allSatisfy { !$0.hasPrefix("import Foundation") })
        #expect(source.components(separatedBy: "\"twice\": ").count == 2, "one table entry for the repeated key")
        #expect(source.contains("\"twice\": \"first\","))
        #expect(source.contains("static var translator_2: String"))
        #expect(!source.unicodeScalars.contains { $0.value == 0x85 || $0.value == 0x2028 })
        let check = try await SwiftSyntaxCheck.typechecks(source)
        #expect(check.ok, "\(check.messages)")
    }

    @Test(arguments: [
        ("--table", "../../T"), ("--langs", "de,../../../L"), ("--swift-type", "../../S"),
        ("--android-default-lang", "../x"), ("--table", ".hidden"), ("--swift-type", "class"),
        ("--langs", String(repeating: "a", count: 300)),
    ])
    func anOptionThatWouldLeaveTheOutputFolderIsRefusedAndNothingIsWritten(option: String, value: String) async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("a/b/out")
        let run = try await CLITests().trema(
            "convert", try fixture("girdersswift-texts.trm").path, "--out", out.path, "--format", "strings", "--format",
            "android",
            "--format", "swift", "--format", "xcstrings", option, value)
        #expect(run.status == 1, "\(run.output)\(run.errors)")
        #expect(run.errors.contains("invalid"), "\(run.errors)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: parent.path)
        #expect(left.isEmpty, "files written: \(left)")
    }

    @Test func theWriterRefusesPathsThatLeaveItsFolderBeforeWritingAnything() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out")
        // A combining mark after `/` or `\\` makes one Character of the two, which a Character-level check misses.
        for path in [
            "../escape.txt", "/etc/x", "a/../../b", "a//b", "./a", "a\\b", "", "../\u{301}escape.txt",
            "a/../\u{301}../\u{301}b", "a\\\u{301}b",
        ] {
            let files = [ExportedFile(path: "first.txt", data: Data()), ExportedFile(path: path, data: Data())]
            #expect(throws: TremaError.self) { try ExportedFile.write(files, to: out) }
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: parent.path).isEmpty)
    }

    @Test(arguments: ["a */ b", "a */\u{301} b", "*/\u{20DD}\"x\" = \"y\";/*"])
    func aCommentCannotEndAStringsCommentEarlyEvenWithACombiningMarkAfterIt(context: String) {
        let written = StringsExporter.comment(context)
        #expect(!written.utf8.contains(UInt8(ascii: "*")) || !written.containsScalars("*/"))
    }

    @Test(arguments: ["a -- b", "a --\u{301} b", "a -\u{301}-\u{301}- b", "-->\u{301}<x/>", "end -"])
    func anAndroidCommentHoldsNoDoubleHyphenEvenWithACombiningMarkAfterIt(context: String) {
        let written = AndroidExporter.comment(context)
        #expect(!written.containsScalars("--"))
        #expect(written.unicodeScalars.last != "-")
    }

    /// Files are written several at once; one that cannot be written still removes every new file beside it.
    @Test func aFileThatCannotBeWrittenRemovesEveryNewFileWrittenBesideIt() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out")
        // A folder where a file should go: its atomic write cannot rename onto it.
        try FileManager.default.createDirectory(
            at: out.appendingPathComponent("values/blocked.xml"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: out.appendingPathComponent("values/existing.xml"))
        var files = (0..<20).map { ExportedFile(path: "values/f\($0).xml", data: Data("\($0)".utf8)) }
        files.insert(ExportedFile(path: "values/blocked.xml", data: Data("x".utf8)), at: 11)
        files.append(ExportedFile(path: "values/existing.xml", data: Data("new".utf8)))
        #expect {
            try ExportedFile.write(files, to: out)
        } throws: { error in
            guard case .cannotWrite(let path, let reason) = error as? TremaError else { return false }
            return path.hasSuffix("values/blocked.xml") && reason.hasPrefix("rename: ")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("values").path)
        #expect(Set(left) == ["blocked.xml", "existing.xml"], "new files rolled back: \(left.sorted())")
    }

    /// Exports are written through a private temporary file, yet end up with the permissions any new file gets
    /// (the umask's), as before: a build server or a colleague's account can read them.
    @Test func exportedFilesGetThePermissionsOfAPlainNewFile() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        try ExportedFile.write([ExportedFile(path: "res/values/strings.xml", data: Data("<x/>".utf8))], to: parent)
        try Data("plain".utf8).write(to: parent.appendingPathComponent("plain.txt"))
        func permissions(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: parent.appendingPathComponent(path).path)[
                .posixPermissions] as? Int
        }
        #expect(try permissions("res/values/strings.xml") == permissions("plain.txt"))
        #expect(
            try String(contentsOf: parent.appendingPathComponent("res/values/strings.xml"), encoding: .utf8) == "<x/>")
    }

    /// The caller writes beside its threads and waits for the last file: with no file there is nothing to wait for.
    @Test func writingNoFilesReturnsAndCreatesNothing() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        try ExportedFile.write([], to: parent.appendingPathComponent("out"))
        try ExportedFile.write([ExportedFile(path: "one.txt", data: Data("1".utf8))], to: parent)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["one.txt"])
    }

    @Test func aSymbolicLinkInsideTheOutputFolderCannotLeadOutside() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out")
        let outside = parent.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: out.appendingPathComponent("res"), withDestinationURL: outside)
        let files = [ExportedFile(path: "ok.txt", data: Data("1".utf8)), ExportedFile(path: "res/x.xml", data: Data())]
        #expect(throws: TremaError.self) { try ExportedFile.write(files, to: out) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("ok.txt").path), "rolled back")
    }

    @Test func aLongLanguageCodeIsAnErrorAtItsPositionAndNothingIsWritten() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let input = parent.appendingPathComponent("long.trm")
        let code = String(repeating: "a", count: 300)
        try Data(
            tremaXML(
                """
                <text key="k"><context/><value lang="de" status="verified">x</value>
                <value lang="\(code)" status="verified">y</value></text>
                """
            ).utf8
        ).write(to: input)
        let out = parent.appendingPathComponent("out")
        let run = try await CLITests().trema("convert", input.path, "--out", out.path)
        #expect(run.status == 1)
        #expect(run.errors.contains("\(input.path):4:1: lang"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func twoSpellingsOfOneAndroidLanguageAreAnErrorNamingBoth() throws {
        let xml = tremaXML(
            """
            <text key="k"><context/><value lang="de" status="verified">x</value>
            <value lang="pt-BR" status="verified">a</value>
            <value lang="pt_BR" status="verified">b</value>
            <value lang="pt-rBR" status="verified">c</value></text>
            """)
        let document = try parse(xml)
        #expect {
            _ = try AndroidExporter.export(document)
        } throws: { error in
            "\(error)".contains(
                "test.trm:5:1: the languages 'pt-BR' and 'pt_BR' both become the Android folder 'values-pt-rBR'")
        }
    }

    @Test func androidKeyCollisionsNameTheirPosition() throws {
        let document = try parse(
            tremaXML(
                """
                <text key="a.b"><context/><value lang="de" status="verified">x</value></text>
                <text key="a_b"><context/><value lang="de" status="verified">y</value></text>
                """))
        #expect {
            _ = try AndroidExporter.export(document)
        } throws: { error in
            "\(error)".contains("test.trm:4:1: the keys 'a.b' and 'a_b'")
        }
    }

    @Test(arguments: ["&#xFFFE;", "&#xFFFF;", "\u{FFFE}", "\u{FFFF}", "<![CDATA[\u{FFFF}]]>"])
    func charactersXMLForbidsAreRejectedWithTheirPosition(_ text: String) throws {
        let found = violations(
            tremaXML(#"<text key="k"><context/><value lang="de" status="verified">ok \#(text)</value></text>"#))
        #expect(found.count == 1)
        let first = try #require(found.first)
        #expect(first.location.line == 3 && first.message.contains("not allowed in XML"), "\(first)")
    }

    @Test func placeholdersBeyondTheLimitsAreLintErrorsAndStayUnformatted() throws {
        let document = document([
            ("position", "", "%100$d"), ("width", "", "%999999999d"), ("precision", "", "%.1001f"),
            ("mixed", "", "%1$@ and %1$d"), ("fine", "", "%99$d %1000d %.1000f"),
        ])
        let errors = TremaLinter.lint(document).filter { $0.severity == .error }
        #expect(Set(errors.map(\.key)) == ["position", "width", "precision", "mixed"])
        let translator = Translator(document: document, language: "en")
        #expect(translator.translate("width", arguments: [1]) == "%999999999d")
        #expect(translator.translate("position", arguments: [1]) == "%100$d")
        #expect(translator.translate("precision", arguments: [1.5]) == "%.1001f")
    }

    /// Found by the placeholders fuzz target (Fuzz/corpus/placeholders/regression-split-width-oom): digits split by
    /// length letters joined into a width of about a billion once the letters were dropped, and one call allocated
    /// 1 GB. Placeholders must now follow printf's order; anything else is a lint error and stays plain text.
    @Test func digitsSplitByLengthLettersNeverJoinIntoAHugeWidth() throws {
        let document = document([
            ("split", "", "%100jjjj100d"), ("order", "", "%l5d"), ("letters", "", "%lllld"),
            ("fine", "", "%-05lld %+.3f %10.2lf %hhd"),
        ])
        let errors = TremaLinter.lint(document).filter { $0.severity == .error }
        #expect(Set(errors.map(\.key)) == ["split", "order", "letters"])
        let translator = Translator(document: document, language: "en")
        #expect(translator.translate("split", arguments: [1]) == "%100jjjj100d")
        #expect(translator.translate("order", arguments: [1]) == "%l5d")
        #expect(translator.translate("fine", arguments: [7, 2.5, 3.25, 9]) == "7     +2.500       3.25 9")
    }

    @Test func translateReturnsAStringWhateverTheArguments() throws {
        let translator = Translator(
            tables: [
                "en": [
                    "o": "object %@", "s": "string %s", "d": "int %d", "f": "real %.1f", "c": "char %c",
                    "many": "%@ %@ %@ %@", "p": "ptr %p",
                ]
            ],
            masterLanguage: "en", language: "en")
        #expect(translator.translate("o", arguments: [42]) == "object 42")
        #expect(translator.translate("s", arguments: [42]) == "string 42")
        #expect(translator.translate("d", arguments: ["seven"]) == "int seven")
        #expect(translator.translate("d", arguments: [Int64.min]) == "int \(Int64.min)")
        #expect(translator.translate("d", arguments: [UInt64.max]) == "int \(UInt64.max)")
        #expect(translator.translate("f", arguments: [2]) == "real 2.0")
        #expect(translator.translate("f", arguments: ["x"]) == "real x")
        #expect(translator.translate("c", arguments: [65]) == "char A")
        #expect(translator.translate("c", arguments: [-1]) == "char \u{FFFD}")
        #expect(translator.translate("many", arguments: [1, "b"]) == "1 b %@ %@")
        #expect(translator.translate("o", arguments: [1, 2, 3]) == "object 1")
        #expect(translator.translate("p", arguments: ["x"]) == "ptr %p")
    }

    @Test func fortyThousandAttributesLanguagesAndTextsAreReadAndLinted() throws {
        let attributes = (0..<40_000).map { " a\($0)=\"v\"" }.joined()
        let manyAttributes = violations(
            tremaXML("<text key=\"k\"\(attributes)><context/><value lang=\"de\" status=\"verified\">x</value></text>"))
        #expect(manyAttributes.count == 40_000)
        let languages = (0..<40_000).map { "<value lang=\"l\($0)\" status=\"verified\">x</value>" }.joined()
        let manyLanguages = try parse(tremaXML("<text key=\"k\"><context/>\(languages)</text>", master: "l0"))
        #expect(manyLanguages.texts.first?.values.count == 40_000)
        #expect(TremaLinter.lint(manyLanguages).isEmpty)
        let texts = (0..<40_000).map {
            "<text key=\"k\($0)\"><context/><value lang=\"de\" status=\"initial\">x</value></text>"
        }.joined()
        #expect(TremaLinter.lint(try parse(tremaXML(texts))).count == 40_000)
    }

    @Test func theCommandLinePrintsAtMostAHundredProblems() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let input = parent.appendingPathComponent("bad.trm")
        let texts = (0..<500).map { "<text key=\"k\($0)\"><value lang=\"de\" status=\"x\">x</value></text>" }
        try Data(tremaXML(texts.joined(separator: "\n")).utf8).write(to: input)
        let run = try await CLITests().trema("lint", input.path)
        #expect(run.status == 1)
        let lines = run.errors.split(separator: "\n")
        #expect(lines.count == 101)
        #expect(lines.last?.hasPrefix("... and ") == true)
    }
}
#endif
