#if os(macOS) || os(Linux)  // reads CLDR's plurals.xml from Debian's unicode-cldr-core
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GirdersTestProcesses
import GirdersTrema
import Testing

/// Every locale of CLDR's own plural data against the sample numbers CLDR writes beside each rule (`@integer 0, 2~16`,
/// `@decimal 0.0~1.5`): an oracle independent of babel, which generated the rules and leaves some locales out.
///
/// The data is Debian's `unicode-cldr-core` (CLDR 41); the rules are CLDR 49. The few locales whose rules CLDR changed
/// in between are named below and left to the babel oracle (`PluralRulesTests`); every other locale, the legacy codes
/// included, must agree on every sample.
@Suite(.requires(.cldr))
struct CLDRSampleTests {
    /// One `<pluralRule>` of plurals.xml: its locales, its category and its samples as written.
    struct Rule {
        let locales: [String]
        let category: PluralCategory
        let samples: [String]
    }

    /// Locales whose cardinal rules CLDR changed after release 41: Hebrew (`he`, `iw`) lost `many`; Catalan, Galician
    /// and Sicilian take `many` for a million; Icelandic's decimals, Maltese's `two` and Vietnamese's `one` changed.
    static let changedSince41: Set<String> = ["ca", "gl", "he", "is", "iw", "mt", "scn", "vi"]

    static func rules() throws -> [Rule] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestTool.cldrPluralsFile))
        let reader = PluralsReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        try #require(parser.parse(), "plurals.xml parses")
        return reader.rules
    }

    @Test func everyLocaleOfCLDRsPluralDataIsKnownLegacyCodesIncluded() throws {
        let locales = Set(try Self.rules().flatMap(\.locales)).subtracting(["root"])
        #expect(locales.count > 200)
        let unknown = locales.filter { !PluralRules.knows($0) }.sorted()
        #expect(unknown.isEmpty, "CLDR has rules for \(unknown)")
        #expect(PluralRules(language: "iw-IL").category(for: 2) == .two, "Hebrew's dual, by the code Android uses")
        for (legacy, current) in [
            ("iw", "he"), ("in", "id"), ("ji", "yi"), ("jw", "jv"), ("mo", "ro"), ("sh", "sr"), ("tl", "fil"),
            ("ars", "ar"),
        ] {
            #expect(PluralRules(language: legacy).categories == PluralRules(language: current).categories, "\(legacy)")
        }
    }

    @Test func everySampleNumberTakesTheCategoryCLDRListsItUnder() throws {
        var checked = 0
        var disagreements: [String] = []
        for rule in try Self.rules() {
            for locale in rule.locales where locale != "root" && !Self.changedSince41.contains(locale) {
                let rules = PluralRules(language: locale)
                for sample in rule.samples {
                    guard let operands = PluralOperands(decimal: sample) else { continue }
                    checked += 1
                    let category = rules.category(for: operands)
                    if category != rule.category {
                        disagreements.append("\(locale) \(sample): \(category), CLDR \(rule.category)")
                    }
                }
            }
        }
        #expect(checked > 10_000, "samples checked")
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(40))")
    }

    @Test func theSampleListsExpandAsCLDRWritesThem() {
        #expect(Self.expand("0, 2~4, 100, …") == ["0", "2", "3", "4", "100"])
        #expect(Self.expand("0.00~0.03, 1.5, 1c6") == ["0.00", "0.01", "0.02", "0.03", "1.5"])
        #expect(Self.expand("0.9~1.1") == ["0.9", "1.0", "1.1"])
    }

    /// A sample list as numbers: ranges `a~b` stepped by their last digit, compact forms (`1c6`, `1.1e3`) left out,
    /// since Girders formats no compact numbers (CLDR's `c` and `e` operands are 0 there).
    static func expand(_ list: String) -> [String] {
        var result: [String] = []
        for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard !item.isEmpty, item != "…", !item.contains("c"), !item.contains("e") else { continue }
            let bounds = item.split(separator: "~").map(String.init)
            guard bounds.count == 2 else {
                result.append(item)
                continue
            }
            let digits = bounds[0].split(separator: ".").dropFirst().first?.count ?? 0
            let scale = Int(pow(10, Double(digits)))
            guard let low = Int(bounds[0].replacingOccurrences(of: ".", with: "")),
                let high = Int(bounds[1].replacingOccurrences(of: ".", with: "")), low <= high
            else { continue }
            for value in low...high {
                result.append(
                    digits == 0
                        ? "\(value)"
                        : "\(value / scale)."
                            + String(String(value % scale).reversed())
                            .padding(toLength: digits, withPad: "0", startingAt: 0).reversed())
            }
        }
        return result
    }

    /// Reads the cardinal `<pluralRules>` of plurals.xml.
    final class PluralsReader: NSObject, XMLParserDelegate {
        var rules: [Rule] = []
        private var cardinal = false
        private var locales: [String] = []
        private var category: PluralCategory?
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            switch element {
            case "plurals": cardinal = attributes["type"] == "cardinal"
            case "pluralRules": locales = (attributes["locales"] ?? "").split(separator: " ").map(String.init)
            case "pluralRule":
                category = attributes["count"].flatMap(PluralCategory.init(rawValue:))
                text = ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(
            _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard element == "pluralRule", cardinal, let category else { return }
            var samples: [String] = []
            for part in text.components(separatedBy: "@").dropFirst() {
                if part.hasPrefix("integer ") { samples += CLDRSampleTests.expand(String(part.dropFirst(8))) }
                if part.hasPrefix("decimal ") { samples += CLDRSampleTests.expand(String(part.dropFirst(8))) }
            }
            rules.append(Rule(locales: locales, category: category, samples: samples))
        }
    }
}
#endif
