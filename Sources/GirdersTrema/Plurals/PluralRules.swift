/// CLDR's plural rules for one language: which ``PluralCategory`` a number takes.
///
/// Generated from CLDR's data for every locale CLDR covers (see ``cldrVersion``), integers and decimals alike;
/// the same on every platform, so a count picks the same form on Linux, iOS and Android.
///
/// ```swift
/// PluralRules(language: "pl").category(for: 5)      // .many
/// PluralRules(language: "fr").category(for: 1.5)    // .one
/// PluralRules(language: "en").categories            // [.one, .other]
/// ```
public struct PluralRules: Sendable, Hashable {
    /// The language asked for.
    public let language: String
    /// The generated rule set the language uses.
    let ruleSet: Int

    /// The rules of `language` (`pl`, `pt-PT`, `pt_BR`, `zh-Hant-HK`): the most specific locale CLDR has a rule for,
    /// then its language; a language CLDR does not know uses `other` for every number.
    public init(language: String) {
        self.language = language
        var parts = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        while !parts.isEmpty {
            if let set = Self.ruleSetByLocale[parts.joined(separator: "_")] {
                ruleSet = set
                return
            }
            parts.removeLast()
        }
        ruleSet = Self.otherOnlyRuleSet
    }

    /// The categories the language uses, in CLDR's order; `other` is always last.
    public var categories: [PluralCategory] {
        ruleSet < Self.categoriesByRuleSet.count ? Self.categoriesByRuleSet[ruleSet] : [.other]
    }

    /// Whether `language` is one CLDR has rules for (itself or its base language).
    public static func knows(_ language: String) -> Bool {
        var parts = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        while !parts.isEmpty {
            if ruleSetByLocale[parts.joined(separator: "_")] != nil { return true }
            parts.removeLast()
        }
        return false
    }

    /// The category of a number given by its operands.
    public func category(for operands: PluralOperands) -> PluralCategory {
        Self.category(ruleSet: ruleSet, operands)
    }

    /// The category of an integer count.
    public func category(for count: Int) -> PluralCategory {
        category(for: PluralOperands(count))
    }

    /// The category of a decimal count shown with its shortest digits, or with `fractionDigits` digits after the
    /// point when given (`1` and `1.0` can take different forms). NaN and the infinities are `other`, as in ICU.
    public func category(for count: Double, fractionDigits: Int? = nil) -> PluralCategory {
        guard count.isFinite else { return .other }
        return category(for: PluralOperands(count, fractionDigits: fractionDigits))
    }
}
