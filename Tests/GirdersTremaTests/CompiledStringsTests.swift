import Foundation
import GirdersTrema
import Testing

/// `.strings` tables as Xcode ships them inside app bundles: binary and XML property lists, UTF-16 text.
struct CompiledStringsTests {
    /// A table's bytes as a property list in `format`.
    func propertyList(_ table: [String: String], _ format: PropertyListSerialization.PropertyListFormat) throws -> Data
    {
        try PropertyListSerialization.data(fromPropertyList: table, format: format, options: 0)
    }

    @Test func aBundleWhoseTablesAreBinaryPropertyListsTranslates() throws {
        let bundleFolder = try temporaryFolder().appendingPathComponent("App.bundle")
        let tables: [(String, Data)] = [
            ("en", try propertyList(["greeting": "Hello %@", "bye": "Bye"], .binary)),
            ("de", try propertyList(["greeting": "Hallo %@", "bye": "Tschüss 😀"], .binary)),
            ("fr", try propertyList(["greeting": "Bonjour %@"], .xml)),
        ]
        for (language, data) in tables {
            let folder = bundleFolder.appendingPathComponent("\(language).lproj")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appendingPathComponent("messages.strings"))
        }
        let info = try propertyList(["CFBundleDevelopmentRegion": "en", "CFBundleIdentifier": "app.test"], .binary)
        try info.write(to: bundleFolder.appendingPathComponent("Info.plist"))
        let bundle = try #require(Bundle(url: bundleFolder))

        let german = try Translator(bundle: bundle, language: "de")
        #expect(german.translate("greeting", arguments: ["Ada"]) == "Hallo Ada")
        #expect(german.translate("bye") == "Tschüss 😀")
        let french = try Translator(bundle: bundle, language: "fr")
        #expect(french.translate("greeting", arguments: ["Ada"]) == "Bonjour Ada")
        #expect(french.translate("bye") == "Bye")  // the master language's text
        #expect(german.languages == ["de", "en", "fr"])
    }

    @Test func everyFormReadsToTheSameEntries() throws {
        let table = ["a": "Ä 😀", "b": "line\nbreak", "c": ""]
        let text = "\"a\" = \"Ä 😀\";\n\"b\" = \"line\\nbreak\";\n\"c\" = \"\";\n"
        let forms: [Data] = [
            try propertyList(table, .binary), try propertyList(table, .xml), Data(text.utf8),
            Data([0xFF, 0xFE]) + (text.data(using: .utf16LittleEndian) ?? Data()),
            Data([0xFE, 0xFF]) + (text.data(using: .utf16BigEndian) ?? Data()),
        ]
        for data in forms {
            let entries = try StringsFileReader.read(data, path: "x.strings")
            #expect(StringsFileReader.table(entries) == table)
        }
    }

    @Test func aPropertyListThatIsNotATableOfStringsNamesTheProblem() throws {
        #expect(
            throws: TremaError.invalidStringsFile(
                path: "x.strings", line: 1, reason: "the value of \"n\" is Int, not a string")
        ) {
            try StringsFileReader.read(
                PropertyListSerialization.data(fromPropertyList: ["n": 1], format: .binary, options: 0),
                path: "x.strings")
        }
        #expect(
            throws: TremaError.invalidStringsFile(
                path: "x.strings", line: 1, reason: "the property list's root is Array, not a dictionary of strings")
        ) {
            try StringsFileReader.read(
                PropertyListSerialization.data(fromPropertyList: ["a"], format: .xml, options: 0), path: "x.strings")
        }
    }

    @Test func aDamagedBinaryTableNamesTheByteOffsetAndABrokenXMLOneTheLine() throws {
        var binary = try propertyList(["a": "b"], .binary)
        binary.removeLast(10)
        #expect(throws: TremaError.self) { try StringsFileReader.read(binary, path: "x.strings") }
        do {
            _ = try StringsFileReader.read(binary, path: "x.strings")
        } catch {
            #expect("\(error)".contains("byte offset"))
        }
        let xml = Data("<plist>\n<dict>\n<key>a</key>\n<integer>x</integer></dict></plist>".utf8)
        #expect(
            throws: TremaError.invalidStringsFile(
                path: "x.strings", line: 4, reason: "column 10: \"x\" is not an integer")
        ) {
            try StringsFileReader.read(xml, path: "x.strings")
        }
    }

    @Test func utf16WithAnUnpairedSurrogateOrAnOddLengthIsAnError() {
        #expect(throws: TremaError.self) {
            try StringsFileReader.read(Data([0xFF, 0xFE, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00, 0x3B, 0x00]))
        }
        #expect(throws: TremaError.self) { try StringsFileReader.read(Data([0xFF, 0xFE, 0x22, 0x00, 0x22])) }
    }
}
