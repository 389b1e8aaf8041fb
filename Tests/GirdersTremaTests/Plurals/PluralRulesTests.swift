#if os(macOS) || os(Linux)  // runs babel (Python) as the oracle: macOS and Linux only
import Foundation
import GirdersTestProcesses
import GirdersTrema
import Testing

/// The generated CLDR plural rules against babel's, for every locale babel has.
struct PluralRulesTests {
    /// Runs a Python script and returns how it ended and what it printed.
    func python(_ arguments: [String]) async throws -> ChildProcessResult {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        return try await process.runToEnd()
    }

    @Test(.requires(.babel)) func everyLocaleAgreesWithBabelForTheIntegersToOneThousandAndDecimals() async throws {
        let run = try await python([try fixture("plural_oracle.py").path])
        try #require(run.status == 0, "the oracle needs babel 2.19.0 (pip install babel==2.19.0): \(run.errorText)")
        var lines = run.outputText.split(separator: "\n")
        let header = lines.removeFirst().split(separator: " ")
        #expect(header.count == 4 && header[1] == Substring(PluralRules.cldrVersion), "\(header)")
        let numbers = lines.removeFirst().split(separator: " ").dropFirst().map(String.init)
        #expect(numbers.count > 1_001)
        let letters: [PluralCategory: Character] = [
            .zero: "z", .one: "o", .two: "t", .few: "f", .many: "m", .other: "x",
        ]
        let operands = numbers.map { PluralOperands(decimal: $0) }
        #expect(!operands.contains(nil))
        var mismatches: [String] = []
        for line in lines {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            let rules = PluralRules(language: String(parts[0]))
            let ours = String(operands.map { letters[rules.category(for: $0 ?? PluralOperands(0))] ?? "?" })
            if ours != String(parts[1]) {
                let index = Array(zip(ours, parts[1])).firstIndex { $0 != $1 } ?? 0
                mismatches.append("\(parts[0]) at \(numbers[index]): ours \(ours.dropFirst(index).prefix(1))")
            }
        }
        #expect(lines.count > 1_000, "every locale babel has")
        #expect(mismatches.isEmpty, "\(mismatches.count) locales differ: \(mismatches.prefix(10))")
    }

    @Test(.requires(.babel)) func theCommittedRulesAreWhatTheGeneratorWritesFromBabel() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Scripts/trema/generate-plural-rules.py")
        let run = try await python([script.path, "--check"])
        #expect(run.status == 0, "\(run.outputText)\(run.errorText)")
    }

    @Test func theCategoriesOfTheLanguagesOfTheExamples() {
        let cases: [(String, Int, PluralCategory)] = [
            ("en", 0, .other), ("en", 1, .one), ("en", 2, .other), ("fr", 0, .one), ("fr", 1, .one),
            ("fr", 2, .other), ("fr", 1_000_000, .many), ("pl", 1, .one), ("pl", 2, .few), ("pl", 5, .many),
            ("pl", 22, .few), ("pl", 112, .many), ("ar", 0, .zero), ("ar", 2, .two), ("ar", 5, .few),
            ("ar", 11, .many), ("ar", 101, .other), ("ja", 1, .other), ("ru", 21, .one), ("ru", 11, .many),
        ]
        for (language, count, category) in cases {
            #expect(PluralRules(language: language).category(for: count) == category, "\(language) \(count)")
        }
        #expect(PluralRules(language: "en").categories == [.one, .other])
        #expect(PluralRules(language: "ar").categories == PluralCategory.allCases)
        #expect(PluralRules(language: "ja").categories == [.other])
        #expect(PluralRules(language: "fr").category(for: 1.5) == .one)
        #expect(PluralRules(language: "en").category(for: 1.0) == .one, "1.0 shown as 1")
        #expect(PluralRules(language: "en").category(for: 1.0, fractionDigits: 1) == .other, "1.0 shown as 1.0")
    }

    @Test func regionalRulesWinOverTheLanguagesAndUnknownLanguagesUseOther() {
        // Portuguese in Portugal treats 0 and 1.5 as `other`, in Brazil as `one`.
        #expect(PluralRules(language: "pt-BR").category(for: 0) == .one)
        #expect(PluralRules(language: "pt_PT").category(for: 0) == .other)
        #expect(PluralRules(language: "PT-pt").category(for: 0) == .other)
        #expect(PluralRules(language: "de-CH").categories == [.one, .other])
        #expect(PluralRules(language: "xx").categories == [.other])
        #expect(!PluralRules.knows("xx") && PluralRules.knows("sr-Latn-BA"))
    }

    @Test func operandsComeFromTheDigitsShown() throws {
        let shown = try #require(PluralOperands(decimal: "-1.50"))
        #expect((shown.i, shown.v, shown.w, shown.f, shown.t) == (1, 2, 1, 50, 5))
        #expect(PluralOperands(decimal: ".5")?.f == 5)
        for bad in ["", ".", "1e3", "1.2.3", "--1", "1,5", "٣", "1 "] {
            #expect(PluralOperands(decimal: bad) == nil, "\(bad)")
        }
        #expect(PluralOperands(1.0) == PluralOperands(1))
        #expect(PluralOperands(1e16) == PluralOperands(10_000_000_000_000_000))
        #expect(PluralOperands(2.5e-7).v == 8)
        #expect(PluralOperands(1.5, fractionDigits: 2) == PluralOperands(decimal: "1.50"))
        #expect(PluralOperands(Double.nan).i >= 1_000_000_000_000_000_000)
        #expect(PluralOperands(-Double.infinity).i >= 1_000_000_000_000_000_000)
    }

    @Test func hugeNumbersKeepTheirLastDigitsForEveryRule() throws {
        // 10^20 + 21: Russian `many`? no: it ends in 21, so `one`, as the rules read the last digits.
        let huge = try #require(PluralOperands(decimal: "100000000000000000021"))
        #expect(PluralRules(language: "ru").category(for: huge) == .one)
        let millions = try #require(PluralOperands(decimal: "3000000000000000000000"))
        #expect(PluralRules(language: "fr").category(for: millions) == .many)
        #expect(PluralRules(language: "en").category(for: PluralOperands(UInt64.max)) == .other)
        #expect(PluralRules(language: "ru").category(for: Int.min) == .many)  // ...808: many
        let longFraction = try #require(PluralOperands(decimal: "0." + String(repeating: "0", count: 5_000) + "1"))
        #expect(longFraction.v == 5_001 && longFraction.f == 1 && longFraction.t == 1)
        let manyDigits = try #require(PluralOperands(decimal: "0." + String(repeating: "12", count: 50)))
        #expect(manyDigits.t == 1_000_000_000_000_000_000 + 121_212_121_212_121_212)
    }
}

#endif
