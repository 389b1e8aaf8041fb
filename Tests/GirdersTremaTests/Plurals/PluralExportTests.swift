import Foundation
import GirdersTrema
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `plurals.trm` (English, French, Polish, Arabic and Japanese) exported to every format and read back.
struct PluralExportTests {
    let document: TremaDocument
    let files: [String: Data]

    /// The categories CLDR gives each language of the fixture.
    static let categories: [String: [String]] = [
        "en": ["one", "other"], "fr": ["one", "many", "other"], "pl": ["one", "few", "many", "other"],
        "ar": ["zero", "one", "two", "few", "many", "other"], "ja": ["other"],
    ]

    init() throws {
        document = try TremaDocument(contentsOf: try fixture("plurals.trm"))
        let exported = try document.export(TremaExportFormat.allCases, options: ExportOptions(includesComments: true))
        files = Dictionary(uniqueKeysWithValues: exported.map { ($0.path, $0.data) })
    }

    @Test func theFormsAreGroupedUnderTheirBaseKeyInFileOrder() {
        #expect(document.plurals.map(\.key) == ["inbox.count", "distance"])
        #expect(document.plurals.first?.categories == PluralCategory.allCases)
        #expect(document.plurals.first?.context == "Who has how many new messages in which folder")
        #expect(TremaText(key: "a#b", values: []).pluralForm == nil)
        #expect(TremaText(key: "#one", values: []).pluralForm == nil)
        #expect(TremaText(key: "x#y#few", values: []).pluralForm?.key == "x#y")
    }

    /// A plural's context is its `other` form's, or else the first non-empty one in CLDR's order of categories.
    @Test(arguments: [
        (["other": "the other's", "one": "one's"], "the other's"),
        (["other": "", "many": "many's", "one": "one's"], "one's"),
        (["few": "few's"], "few's"),
        (["other": "", "one": ""], ""),
    ])
    func thePluralsContextIsTheOtherFormsOrTheFirstGiven(contexts: [String: String], expected: String) {
        let texts = contexts.sorted { $0.key < $1.key }.map { category, context in
            TremaText(key: "k#\(category)", context: context, values: [])
        }
        let document = TremaDocument(masterLanguage: "en", texts: texts)
        #expect(document.plurals.first?.context == expected)
    }

    @Test func eachStringsDictIsAPropertyListWithOneVariablePerPluralInTheLanguagesCategories() throws {
        for (language, categories) in Self.categories {
            let data = try #require(files["\(language).lproj/messages.stringsdict"], "\(language)")
            let plist = try #require(
                try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: [String: Any]])
            let inbox = try #require(plist["inbox.count"])
            #expect(inbox["NSStringLocalizedFormatKey"] as? String == "%2$#@count@")
            let variable = try #require(inbox["count"] as? [String: String])
            #expect(variable["NSStringFormatSpecTypeKey"] == "NSStringPluralRuleType")
            #expect(variable["NSStringFormatValueTypeKey"] == "d")
            #expect(
                Set(variable.keys).subtracting(["NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey"])
                    == Set(categories))
            let distance = try #require(plist["distance"]?["count"] as? [String: String])
            #expect(distance["NSStringFormatValueTypeKey"] == "g")
            #expect(plist["distance"]?["NSStringLocalizedFormatKey"] as? String == "%1$#@count@")
        }
        let polishData = try #require(files["pl.lproj/messages.stringsdict"])
        let polish =
            try PropertyListSerialization.propertyList(from: polishData, format: nil) as? [String: [String: Any]]
        #expect(
            (polish?["inbox.count"]?["count"] as? [String: String])?["few"] == "%1$@ ma %2$d nowe wiadomości w %3$@")
        #expect((polish?["distance"]?["count"] as? [String: String])?["few"] == "%1$g kilometry", "numbered")
    }

    @Test func theStringsFilesCarryEachFormForTheRuntime() throws {
        let english = String(decoding: try #require(files["en.lproj/messages.strings"]), as: UTF8.self)
        #expect(english.contains("\"inbox.count#one\" = \"%1$@ has %2$d new message in %3$@\";"))
        #expect(english.contains("\"inbox.count#other\" = "))
        #expect(!english.contains("inbox.count#few"), "English does not use few")
    }

    @Test func theStringCatalogHasPluralVariationsPerLanguage() throws {
        let data = try #require(files["messages.xcstrings"])
        let catalog = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let strings = try #require(catalog["strings"] as? [String: [String: Any]])
        #expect(strings["inbox.count#one"] == nil, "forms are not keys of their own")
        let inbox = try #require(strings["inbox.count"])
        #expect(inbox["comment"] as? String == "Who has how many new messages in which folder")
        let localizations = try #require(inbox["localizations"] as? [String: [String: Any]])
        #expect(Set(localizations.keys) == Set(Self.categories.keys))
        for (language, categories) in Self.categories {
            let plural = try #require(
                (localizations[language]?["variations"] as? [String: Any])?["plural"] as? [String: [String: Any]])
            #expect(Set(plural.keys) == Set(categories), "\(language)")
            let unit = plural["other"]?["stringUnit"] as? [String: String]
            #expect(unit?["state"] == "translated")
        }
        let title = try #require(strings["title"]?["localizations"] as? [String: [String: Any]])
        #expect(title["fr"]?["stringUnit"] != nil, "ordinary texts keep their string unit")
    }

    @Test func androidResourcesAreWellFormedWithTheLanguagesQuantities() throws {
        let folders = ["en": "values", "fr": "values-fr", "pl": "values-pl", "ar": "values-ar", "ja": "values-ja"]
        for (language, folder) in folders {
            let data = try #require(files["res/\(folder)/strings.xml"], "\(folder)")
            let reader = QuantityReader()
            let parser = XMLParser(data: data)
            parser.delegate = reader
            #expect(parser.parse(), "\(folder): \(String(describing: parser.parserError))")
            #expect(reader.quantities["inbox_count"] == Self.categories[language], "\(language)")
            #expect(reader.quantities["distance"] == Self.categories[language], "\(language)")
        }
        let polish = String(decoding: try #require(files["res/values-pl/strings.xml"]), as: UTF8.self)
        #expect(polish.contains("<item quantity=\"few\">%1$s ma %2$d nowe wiadomości w %3$s</item>"))
    }

    @Test func aCategoryTheLanguageDoesNotUseIsLeftOutOfEveryFormat() throws {
        // English has no `zero`: Android ignores it, Apple would show it for 0, Girders never picks it.
        let document = TremaDocument(
            masterLanguage: "en",
            texts: [
                TremaText(key: "n#zero", values: [TremaValue(language: "en", status: .verified, text: "none")]),
                TremaText(key: "n#one", values: [TremaValue(language: "en", status: .verified, text: "%d item")]),
                TremaText(key: "n#other", values: [TremaValue(language: "en", status: .verified, text: "%d items")]),
            ])
        let files = try document.export(TremaExportFormat.allCases)
        for file in files {
            #expect(!String(decoding: file.data, as: UTF8.self).contains("none"), "\(file.path)")
        }
        #expect(Translator(document: document, language: "en").translate("n", count: 0, arguments: [0]) == "0 items")
    }

    @Test func aPluralWithoutAnOtherFormIsNotExportedAndLintSaysWhy() throws {
        let document = TremaDocument(
            masterLanguage: "en",
            texts: [TremaText(key: "n#one", values: [TremaValue(language: "en", status: .verified, text: "%d item")])])
        let android = try AndroidExporter.export(document)
        #expect(!String(decoding: android[0].data, as: UTF8.self).contains("plurals"))
        #expect(TremaLinter.lint(document).contains { $0.severity == .error && $0.message.contains("lack other") })
    }

    @Test func aKeyThatIsBothATextAndAPluralIsRefusedByTheCatalogAndAndroid() throws {
        let value = [TremaValue(language: "en", status: .verified, text: "x")]
        let document = TremaDocument(
            masterLanguage: "en",
            texts: [TremaText(key: "n", values: value), TremaText(key: "n#other", values: value)])
        #expect(throws: TremaError.self) { try StringCatalogExporter.export(document) }
        #expect(throws: TremaError.self) { try AndroidExporter.export(document) }
        #expect(TremaLinter.lint(document).contains { $0.message.contains("both a text and a plural") })
    }

    @Test func theGeneratedAccessorsTakeTheCountAndEveryOtherArgumentTyped() async throws {
        let source = try #require(SwiftSourceExporter.export(document).first).text
        #expect(source.contains("public static func inboxCount(_ arg1: String, _ arg2: Int, _ arg3: String) -> String"))
        #expect(source.contains("GirdersTrema.translate(\"inbox.count\", count: arg2, arg1, arg2, arg3)"))
        #expect(source.contains("public static func distance(_ arg1: Double) -> String"))
        #if os(macOS) || os(Linux)
        let checked = try await SwiftSyntaxCheck.typechecks(source)
        #expect(checked.ok, "\(checked.messages)")
        let embedded = try #require(SwiftEmbeddedTables.export(document).first).text
        let embeddedChecked = try await SwiftSyntaxCheck.typechecks(embedded)
        #expect(embeddedChecked.ok, "\(embeddedChecked.messages)")
        #endif
    }

    @Test func aPluralWhoseOtherFormShowsNoNumberGetsACountParameter() async throws {
        let document = TremaDocument(
            masterLanguage: "en",
            texts: [
                TremaText(
                    key: "delete#one", values: [TremaValue(language: "en", status: .verified, text: "Delete %@?")]),
                TremaText(
                    key: "delete#other", values: [TremaValue(language: "en", status: .verified, text: "Delete these?")]),
            ])
        let source = try #require(SwiftSourceExporter.export(document).first).text
        #expect(source.contains("public static func delete(_ arg1: String, count: Int) -> String"))
        #if os(macOS) || os(Linux)
        let embedded = try #require(SwiftEmbeddedTables.export(document).first).text
        let checked = try await SwiftSyntaxCheck.typechecks(embedded)
        #expect(checked.ok, "\(checked.messages)")
        #endif
    }
}

/// Collects each `<plurals>` element's item quantities in order.
final class QuantityReader: NSObject, XMLParserDelegate {
    var quantities: [String: [String]] = [:]
    private var current: String?

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if element == "plurals" { current = attributes["name"] }
        if element == "item", let current { quantities[current, default: []].append(attributes["quantity"] ?? "?") }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "plurals" { current = nil }
    }
}
