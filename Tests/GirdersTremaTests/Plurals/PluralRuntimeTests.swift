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

    /// The form follows the digits `String(format:)` prints for the count's placeholder: `%f` shows `1.000000`,
    /// `%e` `1.000000e+00` (both `other` in English), `%g` shows `1` for 1.0000001 (`one`), `%a` shows `0x1p+0`.
    @Test(arguments: [
        ("%f", 1.0, "other"), ("%.0f", 1.0, "one"), ("%.0f", 1.4, "one"), ("%.2f", 1.004, "other"),
        ("%e", 1.0, "other"), ("%.0e", 1.0, "one"), ("%.0E", 1000.0, "other"), ("%g", 1.0000001, "one"),
        ("%g", 1.0, "one"), ("%#g", 1.0, "other"), ("%g", 1.5, "other"), ("%G", 1e20, "other"),
        ("%a", 1.0, "one"), ("%.3a", 1.0, "other"), ("%a", 1.5, "other"), ("%10.0f", 1.0, "one"),
        ("%-08.10f", 1.0, "other"), ("%+.0f", 1.0, "one"), ("%10f", 1.0, "other"),
        ("%1$@ and %2$.0f", 1.0, "one"),
    ])
    func aDecimalCountTakesTheFormOfTheDigitsItsPlaceholderPrints(
        _ placeholder: String, _ count: Double, _ category: String
    ) {
        let translator = Translator(
            tables: ["en": ["d#one": "one \(placeholder)", "d#other": "other \(placeholder)"]], masterLanguage: "en",
            language: "en")
        let form = translator.translate(
            "d", count: count, arguments: placeholder.hasPrefix("%1$@") ? ["x", count] : [count])
        #expect(form.hasPrefix(category + " "), "\(placeholder) of \(count) printed \(form)")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func notANumberAndTheInfinitiesTakeOtherInEveryLanguage(_ count: Double) {
        for language in ["en", "fr", "pl", "ar", "ru", "lv", "ga", "cy", "br", "gv", "he"] {
            #expect(PluralRules(language: language).category(for: count) == .other, "\(language) \(count)")
            let translator = Translator(
                tables: [
                    language: [
                        "d#zero": "zero", "d#one": "one", "d#two": "two", "d#few": "few", "d#many": "many",
                        "d#other": "other %f",
                    ]
                ], masterLanguage: language, language: language)
            #expect(translator.translate("d", count: count, arguments: [count]).hasPrefix("other"), "\(language)")
        }
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
