import Foundation
import GirdersTrema
import Testing

struct StringsFileReaderTests {
    @Test func utf8AndUTF16WithByteOrderMarksReadTheSame() throws {
        let text = "/* comment */\n\"a\" = \"Ä 😀\";\n// line comment\nunquoted = value.with-dots;\n\"self\";\n"
        let expected = [("a", "Ä 😀"), ("unquoted", "value.with-dots"), ("self", "self")]
        for data in [
            Data(text.utf8), Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8),
            Data([0xFF, 0xFE]) + (text.data(using: .utf16LittleEndian) ?? Data()),
            Data([0xFE, 0xFF]) + (text.data(using: .utf16BigEndian) ?? Data()),
        ] {
            let entries = try StringsFileReader.read(data)
            #expect(entries.map(\.key) == expected.map(\.0))
            #expect(entries.map(\.value) == expected.map(\.1))
        }
    }

    @Test func everyEscapeIsRead() throws {
        let entries = try StringsFileReader.read(Data(#""k" = "\n\t\r\"\\\'\U00e9\u00E8\101\ud83d\ude00\q";"#.utf8))
        #expect(entries.first?.value == "\n\t\r\"\\'éèA😀q")
    }

    @Test(arguments: [
        ("\"a\" = \"b\"\n\"c\" = \"d\";", 2, "expected ';' after the entry for \"a\""),
        ("\"a\" = \"b;\n", 1, "unterminated string"),
        ("/* open\n\n", 1, "unterminated comment"),
        ("\n\n= \"b\";", 3, "unexpected '='"),
        ("\"a\" = \"\\U12\";", 1, "\\U needs four hexadecimal digits"),
    ])
    func malformedFilesNameTheLine(text: String, line: Int, reason: String) {
        #expect(throws: TremaError.invalidStringsFile(path: "x.strings", line: line, reason: reason)) {
            try StringsFileReader.read(Data(text.utf8), path: "x.strings")
        }
    }

    @Test func invalidUTF8WithoutAByteOrderMarkIsAnError() {
        #expect(throws: TremaError.self) { try StringsFileReader.read(Data([0x22, 0xC3, 0x28, 0x22, 0x3B])) }
    }
}

struct TranslatorTests {
    let tables = [
        "de": ["greeting": "Hallo %@", "only_de": "Nur Deutsch", "price": "%.2f CHF", "count": "%d Dinge"],
        "en": ["greeting": "Hello %@", "price": "%.2f CHF", "android": "%1$s has %2$d"],
        "fr-CH": ["greeting": "Salut %@"],
    ]

    @Test func lookupFallsBackToTheBaseLanguageThenTheMasterThenMarksTheMiss() {
        let misses = MissLog()
        let translator = Translator(tables: tables, masterLanguage: "de", language: "en", onMiss: misses.record)
        #expect(translator.translate("greeting", arguments: ["Ada"]) == "Hello Ada")
        #expect(translator.translate("only_de") == "Nur Deutsch")
        #expect(translator.translate("greeting", language: "fr-CH", arguments: ["Ada"]) == "Salut Ada")
        #expect(translator.translate("greeting", language: "en-GB", arguments: ["Ada"]) == "Hello Ada")
        #expect(translator.translate("missing") == "?missing?")
        #expect(translator.translate("missing", language: "fr") == "?missing?")
        #expect(misses.entries == ["missing/en", "missing/fr"])
    }

    @Test func argumentsAreFormattedInTheTargetLanguagesLocale() {
        let translator = Translator(tables: tables, masterLanguage: "de", language: "de")
        #expect(translator.translate("price", arguments: [1234.5]) == "1234,50 CHF")
        #expect(translator.translate("price", language: "en", arguments: [1234.5]) == "1234.50 CHF")
        #expect(translator.translate("android", language: "en", arguments: ["Ada", 3]) == "Ada has 3")
        #expect(translator.translate("count", arguments: [3]) == "3 Dinge")
        #expect(translator.translate("android", language: "en", arguments: ["Ada"]) == "Ada has %2$d")
        #expect(translator.translate("count", arguments: [1_234_567]) == "1234567 Dinge")
    }

    @Test func textsWithoutArgumentsAreFormattedAsGirdersSwiftDidLeavingLonePlaceholders() {
        let translator = Translator(tables: ["de": ["p": "100 %% sicher", "n": "%d Dinge"]], masterLanguage: "de")
        #expect(translator.translate("p") == "100 % sicher")
        #expect(translator.translate("n") == "%d Dinge")
    }

    @Test func tablesLoadFromExportedStringsFilesAndStraightFromTheTrmFile() throws {
        let source = try fixture("golden/texts.trm")
        let document = try TremaDocument(contentsOf: source)
        let folder = try temporaryFolder()
        try ExportedFile.write(StringsExporter.export(document), to: folder)
        let fromFolder = try Translator(folder: folder, masterLanguage: "de", language: "fr")
        let fromTrm = try Translator(trm: source, language: "fr")
        for translator in [fromFolder, fromTrm] {
            #expect(translator.languages == ["de", "en", "fr"])
            #expect(translator.translate("help.multiline") == "Besoin d'aide ?\nAppelez-nous : «0800 123 456»")
            #expect(translator.translate("download.path") == #"Gespeichert in C:\Users\Public & Downloads"#)
            #expect(
                translator.translate("login.welcome", arguments: ["Ada", 2])
                    == "Bonjour Ada, vous avez 2 nouveaux messages.")
        }
    }

}

/// Records translation misses from any thread.
final class MissLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    @Sendable func record(_ key: String, _ language: String) {
        lock.withLock { recorded.append("\(key)/\(language)") }
    }

    var entries: [String] { lock.withLock { recorded } }
}

/// Tests that replace the process-wide ``Translation/shared`` run one after another.
@Suite(.serialized) enum UsesSharedTranslator {}

extension UsesSharedTranslator {
    struct GlobalTranslateTests {
        @Test func theGlobalTranslateReadsTheSharedTranslator() {
            Translation.shared = Translator(
                tables: ["de": ["greeting": "Hallo %@"], "en": ["greeting": "Hello %@"]], masterLanguage: "de",
                language: "de")
            #expect(translate("greeting", "Ada") == "Hallo Ada")
            #expect(translate("greeting", language: "en", "Ada") == "Hello Ada")
            #expect(translate("nothing") == "?nothing?")
        }

        @Test func theReadmeExampleRuns() throws {
            let folder = try temporaryFolder()
            let source = try fixture("golden/texts.trm")
            // --- README example begins ---
            let document = try TremaDocument(contentsOf: source)
            let files = try document.export(
                [.strings, .xcstrings, .android, .swift], options: ExportOptions(includesComments: true))
            try ExportedFile.write(files, to: folder)

            for finding in TremaLinter.lint(document) { print(finding) }  // file:line:column: warning: ...

            Translation.shared = Translator(document: document, language: "en")
            let welcome = translate("login.welcome", "Ada", 3)  // "Hello Ada, you have 3 new messages."
            let title = translate("login.title", language: "fr")  // "Se connecter"
            let missing = translate("no.such.key")  // "?no.such.key?"
            // --- README example ends ---
            #expect(welcome == "Hello Ada, you have 3 new messages.")
            #expect(title == "Se connecter")
            #expect(missing == "?no.such.key?")
            #expect(files.count == 8)
            #expect(
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("res/values-en/strings.xml").path))
        }
    }
}
