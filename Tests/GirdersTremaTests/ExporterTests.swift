#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
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

    @Test func swiftIdentifiersAreSanitisedAndTheSourceParses() throws {
        let document = try parse(
            tremaXML(
                """
                <text key="app.name"><context/><value lang="de" status="verified">A</value></text>
                <text key="app_name"><context/><value lang="de" status="verified">B</value></text>
                <text key="default"><context>line one\nline two</context><value lang="de" status="verified">C</value></text>
                <text key="2fa-title"><context/><value lang="de" status="verified">%1$@ hat %2$ld</value></text>
                <text key="quote&quot;key"><context/><value lang="de" status="verified">D</value></text>
                """))
        let source = try #require(SwiftSourceExporter.export(document).first).text
        for declaration in [
            "static var appName:", "static var appName_2:", "static var `default`:",
            "static func _2faTitle(_ arg1: String, _ arg2: Int)", #"translate("quote\"key")"#,
        ] {
            #expect(source.contains(declaration), "\(declaration)")
        }
        #expect(source.contains("    /// line one\n    /// line two\n"))
        #expect(try SwiftSyntaxCheck.parses(source))
    }
}

/// Reads Android `strings.xml` into name → displayed text, applying aapt's escapes (`\'`, `\"`, `\\`, `\n`,
/// `\t`, `\@`, `\?`, `\uXXXX`).
enum AndroidStrings {
    final class Reader: NSObject, XMLParserDelegate {
        let quotesDelimit: Bool
        var strings: [String: String] = [:]

        init(quotesDelimit: Bool) {
            self.quotesDelimit = quotesDelimit
        }

        private var name: String?
        private var buffer = ""

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if element == "string" {
                name = attributes["name"]
                buffer = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            buffer += string
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if element == "string", let name {
                strings[name] = AndroidStrings.unescape(buffer, quotesDelimit: quotesDelimit)
            }
            name = nil
        }
    }

    /// With `quotesDelimit` false, an unescaped `"` is an ordinary character (aapt2 would drop it and keep the
    /// white space it encloses).
    static func read(_ data: Data, quotesDelimit: Bool = true) throws -> [String: String] {
        let reader = Reader(quotesDelimit: quotesDelimit)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else { throw parser.parserError ?? TremaError.exportFailed(reason: "XML") }
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

/// Runs the toolchain's compiler over generated Swift source.
enum SwiftSyntaxCheck {
    /// Whether `source` parses.
    static func parses(_ source: String) throws -> Bool {
        try run(source, ["-parse"]).status == 0
    }

    /// Whether `source` type-checks against the GirdersTrema module this test run was built with, and the
    /// compiler's messages when it does not.
    static func typechecks(_ source: String) throws -> (ok: Bool, messages: String) {
        let modules = try #require(Bundle.module.resourceURL).deletingLastPathComponent()
            .appendingPathComponent("Modules")
        // GirdersTrema's GirdersSupport imports the C module CGirdersAtomics, whose module map SwiftPM passes to
        // its own compiles; this one is given it the same way.
        let atomics = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CGirdersAtomics/include")
        let result = try run(
            source,
            [
                "-typecheck", "-I", modules.path, "-Xcc",
                "-fmodule-map-file=\(atomics.appendingPathComponent("module.modulemap").path)",
            ])
        return (result.status == 0, result.messages)
    }

    private static func run(_ source: String, _ flags: [String]) throws -> (status: Int32, messages: String) {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Texts.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + flags + [file.path]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PATH": "/opt/swift/usr/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        ]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, messages)
    }
}
#endif
