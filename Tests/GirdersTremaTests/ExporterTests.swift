#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import GirdersTrema
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

struct ExporterTests {
    func golden(_ document: TremaDocument) throws -> [ExportedFile] {
        let options = ExportOptions(includesComments: true, sourceName: "texts.trm")
        return StringsExporter.export(document, options: options)
            + (try StringCatalogExporter.export(document, options: options))
            + (try AndroidExporter.export(document, options: options))
            + SwiftSourceExporter.export(document, options: options)
    }

    @Test func everyExporterMatchesItsGoldenFiles() throws {
        let files = try golden(try TremaDocument(contentsOf: try fixture("golden/texts.trm")))
        #expect(files.count == 8)
        for file in files {
            let expected = try Data(contentsOf: try fixture("golden/expected/\(file.path)"))
            #expect(file.text == String(decoding: expected, as: UTF8.self), "\(file.path)")
        }
    }

    @Test func formatsExportedTogetherEqualEachExportedAlone() throws {
        // Together, the formats share the languages and entries found once; alone, each finds its own.
        let document = try TremaDocument(contentsOf: try fixture("plurals.trm"))
        let options = ExportOptions(includesComments: true, sourceName: "plurals.trm")
        let formats: [TremaExportFormat] = [.strings, .xcstrings, .android, .swift]
        let together = try document.export(formats, options: options)
        let alone = try formats.flatMap { try $0.export(document, options: options) }
        #expect(together.map(\.path) == alone.map(\.path))
        #expect(together.map(\.data) == alone.map(\.data))
        #expect(together.contains { $0.path.hasSuffix(".stringsdict") })  // the fixture's plurals are in it
    }

    @Test func girdersSwiftsTremaRbFormIsOneLinePerKeyInFileOrder() throws {
        let files = StringsExporter.export(try TremaDocument(contentsOf: try fixture("girdersswift-texts.trm")))
        #expect(files.map(\.path) == ["de.lproj/messages.strings"])
        #expect(files[0].text == "\"name\" = \"AppName\";\n\"refresh\" = \"New Value\";\n")
    }

    @Test func stringsFilesGiveBackEveryHostileValueThroughFoundationAndOurReader() throws {
        let document = hostileDocument()
        let file = try #require(
            StringsExporter.export(document, options: ExportOptions(includesComments: true)).first {
                $0.path.hasPrefix("en")
            })
        let foundation = try #require(
            try PropertyListSerialization.propertyList(from: file.data, format: nil) as? [String: String])
        let ours = StringsFileReader.table(try StringsFileReader.read(file.data))
        for (index, value) in hostileValues.enumerated() {
            #expect(foundation["key\(index)"] == value, "Foundation, value \(index)")
            #expect(ours["key\(index)"] == value, "StringsFileReader, value \(index)")
        }
    }

    @Test func statusLanguageAndFillOptionsSelectTheValues() throws {
        let document = try parse(
            tremaXML(
                """
                <text key="a"><context/><value lang="de" status="verified">A</value><value lang="en" status="initial">A-en</value></text>
                <text key="b"><context/><value lang="de" status="verified">B</value></text>
                """))
        let final = StringsExporter.export(
            document, options: ExportOptions(languages: ["en"], statuses: [.verified, .translated]))
        #expect(final.map(\.text) == [""])
        let filled = StringsExporter.export(
            document, options: ExportOptions(languages: ["en"], fillsFromMaster: true, table: "Localizable"))
        #expect(filled.map(\.path) == ["en.lproj/Localizable.strings"])
        #expect(filled[0].text == "\"a\" = \"A-en\";\n\"b\" = \"B\";\n")
        let raw = StringsExporter.export(
            try parse(tremaXML(#"<text key="n"><context/><value lang="de" status="verified">a\nb</value></text>"#)),
            options: ExportOptions(readsEscapes: false))
        #expect(raw[0].text == #""n" = "a\\nb";"# + "\n")
    }

    @Test func theStringCatalogIsJSONWithStatesAndComments() throws {
        let document = try TremaDocument(contentsOf: try fixture("golden/texts.trm"))
        let file = try #require(try StringCatalogExporter.export(document).first)
        let json = try #require(try JSONSerialization.jsonObject(with: file.data) as? [String: Any])
        #expect(json["sourceLanguage"] as? String == "de" && json["version"] as? String == "1.0")
        let strings = try #require(json["strings"] as? [String: [String: Any]])
        #expect(strings.count == document.texts.count)
        let title = try #require(strings["login.title"])
        #expect(title["comment"] as? String == "Title of the login screen")
        let fr = (title["localizations"] as? [String: Any])?["fr"] as? [String: Any]
        #expect((fr?["stringUnit"] as? [String: String]) == ["state": "needs_review", "value": "Se connecter"])
        let help = (strings["help.multiline"]?["localizations"] as? [String: Any])?["en"] as? [String: Any]
        #expect((help?["stringUnit"] as? [String: String])?["value"] == "Need help?\nCall us: \"0800 123 456\"")
    }

    @Test func androidOutputMatchesTheOfficialExporterInMeaning() throws {
        let document = try TremaDocument(contentsOf: try fixture("trema-android-texts.trm"))
        let files = try AndroidExporter.export(document, options: ExportOptions(androidDefaultLanguage: "de"))
        #expect(
            Set(files.map(\.path)) == [
                "res/values/strings.xml", "res/values-en/strings.xml", "res/values-fr/strings.xml",
                "res/values-it/strings.xml",
            ])
        for file in files {
            let folder = file.path.split(separator: "/")[1]
            // The official exporter writes double quotes raw, which aapt2 reads as quoting and drops; Girders escapes
            // them. Its file is read with quotes as plain characters, the meaning its authors intended.
            let expected = try AndroidStrings.read(
                try Data(contentsOf: try fixture("trema-android-expected/\(folder)/strings.xml")), quotesDelimit: false)
            #expect(try AndroidStrings.read(file.data) == expected, "\(file.path)")
        }
    }

    @Test func androidOutputParsesAsXMLAndKeepsHostileValues() throws {
        let files = try AndroidExporter.export(hostileDocument(), options: ExportOptions(includesComments: true))
        let english = try #require(files.first { $0.path == "res/values-en/strings.xml" })
        let strings = try AndroidStrings.read(english.data)
        for (index, value) in hostileValues.enumerated() where !value.contains("%") {
            #expect(strings["key\(index)"] == value, "value \(index)")
        }
        #expect(
            AndroidExporter.positional("%@ and %d, %2$@, %i %u %% %p %ld")
                == "%1$s and %2$d, %2$s, %3$d %4$d %% %p %5$d")
    }

    /// Positions are copied by byte offsets: text with multi-byte characters before, between and after the
    /// placeholders comes out whole.
    @Test func androidPositionalKeepsMultiByteTextAroundPlaceholders() {
        #expect(AndroidExporter.positional("é %@ 日本 %lld🙂%% ü %3$.2f ß") == "é %1$s 日本 %2$d🙂%% ü %3$.2f ß")
        #expect(AndroidExporter.positional("🙂%p") == "🙂%p")
        #expect(AndroidExporter.positional("%12$@ and %@") == "%12$s and %1$s")
        // Implicit positions past one digit.
        let eleven = Array(repeating: "%@", count: 11).joined(separator: " ")
        #expect(AndroidExporter.positional(eleven) == (1...11).map { "%\($0)$s" }.joined(separator: " "))
    }

    @Test func androidKeepsRunsOfSpacesThatAapt2WouldFold() throws {
        // aapt2 folds a run of white space inside a <string> to one space and trims both ends.
        let values = ["a  b", "  two leading", "two trailing  ", "a   \t  b", " ", "   ", "x \n y"]
        let document = TremaDocument(
            masterLanguage: "de",
            texts: values.enumerated().map { index, value in
                TremaText(key: "k\(index)", values: [TremaValue(language: "de", status: .verified, text: value)])
            })
        let file = try #require(try AndroidExporter.export(document).first)
        let strings = try AndroidStrings.read(file.data)
        for (index, value) in values.enumerated() {
            #expect(strings["k\(index)"] == value, "\(value.debugDescription)")
        }
        // The escapes themselves: the second space of a pair, wherever the pair is, and nothing for single spaces.
        #expect(AndroidExporter.escape("a  b") == "a \\u0020b")
        #expect(AndroidExporter.escape("a b c d") == "a b c d")
        #expect(AndroidExporter.escape("a b c  d") == "a b c \\u0020d")
        #expect(AndroidExporter.escape("x\u{FFFE}y é") == "x\\ufffey é")
    }

    @Test func androidOutputIsWellFormedForCharactersXMLCannotCarry() throws {
        // A document built in code (the parser refuses these, so no .trm file reaches here): a control character in
        // a comment, and the non-characters U+FFFE and U+FFFF in values.
        let document = TremaDocument(
            masterLanguage: "de",
            texts: [
                TremaText(
                    key: "a", context: "bell \u{1} here",
                    values: [TremaValue(language: "de", status: .verified, text: "x\u{FFFE}y")]),
                TremaText(key: "b", values: [TremaValue(language: "de", status: .verified, text: "\u{FFFF}")]),
            ])
        let file = try #require(
            try AndroidExporter.export(document, options: ExportOptions(includesComments: true)).first)
        let strings = try AndroidStrings.read(file.data)
        #expect(strings["a"] == "x\u{FFFE}y")
        #expect(strings["b"] == "\u{FFFF}")
    }

    @Test func androidResourceNamesAreValidAndCollisionsAreErrors() throws {
        #expect(AndroidExporter.resourceName("key.with.dots") == "key_with_dots")
        #expect(AndroidExporter.resourceName("2fa-code") == "_2fa_code")
        #expect(AndroidExporter.resourceName("class") == "class_")
        // Keywords of every length, the longest among them, are escaped; a longer name that starts with one is not.
        for keyword in ["do", "if", "int", "null", "true", "strictfp", "instanceof", "implements", "synchronized"] {
            #expect(AndroidExporter.resourceName(keyword) == keyword + "_")
        }
        #expect(AndroidExporter.resourceName("synchronizedX") == "synchronizedX")
        // A bridged key, without contiguous UTF-8, is read through its view to the same name.
        #expect(AndroidExporter.resourceName(String(NSString(string: "synchronized"))) == "synchronized_")
        #expect(AndroidExporter.resourceName(String(NSString(string: "café.über"))) == "caf___ber")
        // One `_` per scalar outside ASCII, whatever its length in UTF-8 (2, 3 or 4 bytes, or combining).
        #expect(AndroidExporter.resourceName("café.über") == "caf___ber")
        #expect(AndroidExporter.resourceName("日本🙂e\u{301}") == "___e_")
        let clash = try parse(
            tremaXML(
                """
                <text key="a.b"><context/><value lang="de" status="verified">1</value></text>
                <text key="a-b"><context/><value lang="de" status="verified">2</value></text>
                """))
        #expect(
            throws: TremaError.exportFailed(
                reason: "test.trm:4:1: the keys 'a.b' and 'a-b' both become the Android name 'a_b'")
        ) {
            try AndroidExporter.export(clash)
        }
    }

    @Test func swiftIdentifiersAreSanitisedAndTheSourceParses() async throws {
        let document = try parse(
            tremaXML(
                """
                <text key="app.name"><context/><value lang="de" status="verified">A</value></text>
                <text key="app_name"><context/><value lang="de" status="verified">B</value></text>
                <text key="default"><context>line one\nline two</context><value lang="de" status="verified">C</value></text>
                <text key="2fa-title"><context/><value lang="de" status="verified">%1$@ hat %2$ld</value></text>
                <text key="quote&quot;key"><context/><value lang="de" status="verified">D</value></text>
                <text key="gap"><context/><value lang="de" status="verified">%3$.1f of %%</value></text>
                <text key="precedencegroup"><context/><value lang="de" status="verified">E</value></text>
                """))
        let source = try #require(SwiftSourceExporter.export(document).first).text
        for declaration in [
            "static var appName:", "static var appName_2:", "static var `default`:",
            "static func _2faTitle(_ arg1: String, _ arg2: Int)", #"translate("quote\"key")"#,
            "static func gap(_ arg1: String, _ arg2: String, _ arg3: Double)", "translate(\"gap\", arg1, arg2, arg3)",
            "static var `precedencegroup`:",
        ] {
            #expect(source.contains(declaration), "\(declaration)")
        }
        #expect(source.contains("    /// line one\n    /// line two\n"))
        #expect(try await SwiftSyntaxCheck.parses(source))
    }
}

/// Runs the toolchain's compiler over generated Swift source.
enum SwiftSyntaxCheck {
    /// Whether `source` parses.
    static func parses(_ source: String) async throws -> Bool {
        try await run(source, ["-parse"]).status == 0
    }

    /// Whether `source` type-checks against the GirdersTrema module this test run was built with, and the
    /// compiler's messages when it does not.
    static func typechecks(_ source: String) async throws -> (ok: Bool, messages: String) {
        let modules = try #require(Bundle.module.resourceURL).deletingLastPathComponent()
            .appendingPathComponent("Modules")
        // GirdersTrema's GirdersSupport imports the C module CGirdersAtomics, whose module map SwiftPM passes to
        // its own compiles; this one is given it the same way.
        let atomics = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CGirdersAtomics/include")
        let result = try await run(
            source,
            [
                "-typecheck", "-I", modules.path, "-Xcc",
                "-fmodule-map-file=\(atomics.appendingPathComponent("module.modulemap").path)",
            ])
        return (result.status == 0, result.messages)
    }

    private static func run(_ source: String, _ flags: [String]) async throws -> (status: Int32, messages: String) {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Texts.swift")
        try Data(source.utf8).write(to: file)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + flags + [file.path]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PATH": "/opt/swift/usr/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        ]) { $1 }
        let run = try await process.runToEnd()
        return (run.status, run.errorText)
    }
}
#endif

/// Found by the `trema-roundtrip` fuzz target: a value starting with a byte-order mark lost it when the string
/// catalog was read back (Foundation's JSON reader drops a raw U+FEFF at the start of a string).
struct StringCatalogInvisibleCharacterTests {
    @Test func invisibleCharactersAreWrittenAsEscapesAndReadBackUnchanged() throws {
        let texts = ["\u{FEFF}starts with a BOM", "\u{FFFE}\u{FFFF}", "a\u{2028}b\u{2029}c", "plain"]
        let document = TremaDocument(
            masterLanguage: "en",
            texts: texts.enumerated().map { index, text in
                TremaText(key: "k\(index)", values: [TremaValue(language: "en", status: .verified, text: text)])
            })
        let file = try #require(try StringCatalogExporter.export(document).first)
        let json = String(decoding: file.data, as: UTF8.self)
        #expect(json.contains(#""value" : "\uFEFFstarts with a BOM""#))
        let catalog = try #require(try JSONSerialization.jsonObject(with: file.data) as? [String: Any])
        let strings = try #require(catalog["strings"] as? [String: [String: Any]])
        for (index, text) in texts.enumerated() {
            let localizations = strings["k\(index)"]?["localizations"] as? [String: [String: [String: String]]]
            #expect(localizations?["en"]?["stringUnit"]?["value"] == text)
        }
    }
}
