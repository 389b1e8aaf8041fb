import Foundation
import GirdersTrema
import Testing

/// `translate(_:count:...)` picks the form by the language's CLDR rule, on every platform.
struct PluralRuntimeTests {
    let translator: Translator

    init() throws {
        translator = try Translator(trm: try fixture("plurals.trm"), language: "en")
    }

    func inbox(_ count: Int, _ language: String) -> String {
        translator.translate("inbox.count", count: count, language: language, arguments: ["Ana", count, "Inbox"])
    }

    @Test(arguments: [
        ("en", ["other", "one", "other", "other", "other", "other", "other"]),
        ("fr", ["one", "one", "other", "other", "other", "other", "other"]),
        ("pl", ["many", "one", "few", "many", "many", "few", "many"]),
        ("ar", ["zero", "one", "two", "few", "many", "many", "other"]),
        ("ja", ["other", "other", "other", "other", "other", "other", "other"]),
    ])
    func eachCountTakesItsLanguagesForm(_ language: String, _ categories: [String]) throws {
        let document = try TremaDocument(contentsOf: try fixture("plurals.trm"))
        for (count, category) in zip([0, 1, 2, 5, 11, 22, 101], categories) {
            let form = try #require(document.text(forKey: "inbox.count#\(category)")?.value(for: language)).text
            let expected = form.replacingOccurrences(of: "%1$@", with: "Ana")
                .replacingOccurrences(of: "%2$d", with: "\(count)").replacingOccurrences(of: "%3$@", with: "Inbox")
            #expect(inbox(count, language) == expected, "\(language) \(count)")
        }
    }

    @Test func aDecimalCountUsesTheDigitsShown() {
        func distance(_ value: Double, _ language: String) -> String {
            translator.translate("distance", count: value, language: language, arguments: [value])
        }
        #expect(distance(1.5, "en") == "1.5 kilometres")
        #expect(distance(1.5, "fr") == "1,5 kilomètre")
        #expect(distance(1.5, "pl") == "1,5 kilometra")
        #expect(distance(1, "en") == "1 kilometre")
        #expect(distance(2, "ar") == "2 كيلومتران")
        let tenths = Translator(
            tables: ["en": ["d#one": "%.1f mile", "d#other": "%.1f miles"]], masterLanguage: "en", language: "en")
        #expect(tenths.translate("d", count: 1.0, arguments: [1.0]) == "1.0 miles", "1.0 shown is not 1")
    }

    @Test func aLanguageWithoutThePluralFallsBackThroughTheChain() {
        #expect(inbox(2, "pl-PL").hasPrefix("Ana ma 2 nowe"))
        #expect(inbox(1, "de") == "Ana has 1 new message in Inbox", "the master language's")
    }

    @Test func aCategoryWithoutAFormTakesOtherAndNoOtherIsAMiss() {
        let misses = MissLog()
        let translator = Translator(
            tables: ["pl": ["n#other": "%d rzeczy", "m#one": "%d rzecz"]], masterLanguage: "pl", language: "pl",
            onMiss: misses.record)
        #expect(translator.translate("n", count: 5, arguments: [5]) == "5 rzeczy")
        #expect(translator.translate("m", count: 1, arguments: [1]) == "?m?")
        #expect(misses.entries == ["m/pl"])
    }
}
