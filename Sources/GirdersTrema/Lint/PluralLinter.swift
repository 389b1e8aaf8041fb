import GirdersSupport

/// The lint rules for plural texts (see ``TremaPlural``), one language at a time against CLDR's rules.
enum PluralLinter {
    /// The findings for `plural`: a key that is also an ordinary text (error); in each language with forms, a
    /// category the language needs but lacks (error), a category it never uses (warning), placeholders that differ
    /// between its forms or from the master language's `other` form (error), and a form that does not show the
    /// count (an error, or a warning for a category that stands for one number only, such as English `one`:
    /// "One message" is idiomatic, Russian `one`, which also holds 21 and 31, is not); a language without forms
    /// (warning), a language CLDR has no rules for (warning), and a form that starts with U+FEFF (warning: Foundation's
    /// property list reader drops it).
    static func findings(
        _ plural: TremaPlural, _ document: TremaDocument, languages: [String], plainKeys: Set<String>
    ) -> [LintFinding] {
        var findings: [LintFinding] = []
        func add(_ severity: LintFinding.Severity, _ message: String, at location: SourceLocation?) {
            findings.append(
                LintFinding(
                    severity: severity, key: plural.key, message: message, location: location ?? plural.location))
        }
        let name = "plural '\(plural.key)'"
        if plainKeys.contains(plural.key) {
            add(
                .error, "'\(plural.key)' is both a text and a plural (its forms are keyed '\(plural.key)#...')", at: nil
            )
        }
        let masterOther = plural.forms[.other]?.value(for: document.masterLanguage)?.meaning()
        var missingLanguages: [String] = []
        for language in languages {
            let values = plural.values(for: language)
            guard let first = values.min(by: { $0.key < $1.key })?.value else {
                missingLanguages.append(language)
                continue
            }
            let rules = PluralRules(language: language)
            let needed = rules.categories
            let cldr = needed.map(\.rawValue).joined(separator: ", ")
            if !PluralRules.knows(language) {
                add(
                    .warning, "CLDR has no plural rules for '\(language)'; every count takes the other form",
                    at: first.location)
            }
            let missing = needed.filter { values[$0] == nil }
            if !missing.isEmpty {
                add(
                    .error,
                    "the \(language) forms of \(name) lack \(missing.map(\.rawValue).joined(separator: ", ")) (\(language) uses \(cldr))",
                    at: first.location)
            }
            for (category, value) in values.sorted(by: { $0.key < $1.key }) where !needed.contains(category) {
                add(
                    .warning,
                    "the \(language) '\(category.rawValue)' form of \(name) is never used: \(language) uses \(cldr)",
                    at: value.location)
            }
            for (category, value) in values.sorted(by: { $0.key < $1.key })
            where value.meaning().unicodeScalars.first == "\u{FEFF}" {
                add(
                    .warning,
                    "the \(language) '\(category.rawValue)' form of \(name) starts with U+FEFF, which Foundation drops when it reads a .stringsdict",
                    at: value.location)
            }
            guard let other = values[.other]?.meaning() else { continue }
            let count = TremaPlural.countArgument(in: other)
            let reference = PrintfPlaceholder.argumentKinds(other)
            if language != document.masterLanguage, let masterOther,
                PrintfPlaceholder.argumentKinds(masterOther) != reference
            {
                add(
                    .error,
                    "the \(language) other form of \(name) has placeholders \(TremaLinter.describe(reference)), the master (\(document.masterLanguage)) has \(TremaLinter.describe(PrintfPlaceholder.argumentKinds(masterOther)))",
                    at: values[.other]?.location)
            }
            for (category, value) in values.sorted(by: { $0.key < $1.key })
            where category != .other && needed.contains(category) {
                var kinds = PrintfPlaceholder.argumentKinds(value.meaning())
                if let count {
                    if kinds[count.position] == nil {
                        let single = singleNumber(category, rules)
                        add(
                            single ? .warning : .error,
                            "the \(language) '\(category.rawValue)' form of \(name) does not show the count (argument \(count.position))"
                                + (single ? "" : "; in \(language) it covers more than one number"),
                            at: value.location)
                        kinds[count.position] = count.kind
                    }
                }
                if kinds != reference {
                    add(
                        .error,
                        "the \(language) '\(category.rawValue)' form of \(name) has placeholders \(TremaLinter.describe(kinds)), its other form has \(TremaLinter.describe(reference))",
                        at: value.location)
                }
            }
        }
        if !missingLanguages.isEmpty {
            add(.warning, "\(name) has no forms for \(missingLanguages.joined(separator: ", "))", at: nil)
        }
        return findings
    }

    /// A text keyed `base#word` beside the forms of plural `base`, where `word` is no category (`#mnay`, `#Other`):
    /// an error, since the form it was meant to be is missing and it would be exported as an ordinary text.
    static func misspelledForms(_ document: TremaDocument) -> [LintFinding] {
        let plurals = Set(document.plurals.map(\.key))
        guard !plurals.isEmpty else { return [] }
        var findings: [LintFinding] = []
        for text in document.texts where text.pluralForm == nil {
            guard let hash = text.key.lastIndexOfUTF8(UInt8(ascii: "#")) else { continue }
            let base = String(text.key[..<hash])
            guard plurals.contains(base) else { continue }
            let word = text.key[text.key.index(after: hash)...]
            let categories = PluralCategory.allCases.map(\.rawValue).joined(separator: ", ")
            findings.append(
                LintFinding(
                    severity: .error, key: text.key,
                    message:
                        "'\(word)' in '\(text.key)' is not a plural category (\(categories)): it is no form of plural '\(base)' and would be exported as an ordinary text",
                    location: text.location))
        }
        return findings
    }

    /// Whether exactly one of the integers 0 to 1,000 (and not 1.5) takes `category` under `rules`.
    static func singleNumber(_ category: PluralCategory, _ rules: PluralRules) -> Bool {
        singleNumberCategories[rules.ruleSet]?.contains(category) ?? false
    }

    /// Each rule set's categories that stand for one number only, computed once.
    private static let singleNumberCategories: [Int: Set<PluralCategory>] = {
        var result: [Int: Set<PluralCategory>] = [:]
        for ruleSet in 0..<PluralRules.categoriesByRuleSet.count {
            var counts: [PluralCategory: Int] = [:]
            for number in 0...1000 {
                counts[PluralRules.category(ruleSet: ruleSet, PluralOperands(number)), default: 0] += 1
            }
            let decimal = PluralRules.category(ruleSet: ruleSet, PluralOperands(decimal: "1.5") ?? PluralOperands(0))
            result[ruleSet] = Set(counts.filter { $0.value == 1 && $0.key != decimal }.keys)
        }
        return result
    }()
}
