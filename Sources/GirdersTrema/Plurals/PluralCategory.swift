/// One of CLDR's plural categories: which form of a text a number takes in a language.
///
/// English uses `one` ("1 message") and `other` ("0 messages", "2 messages", "1.5 messages"); French counts 0 and
/// 1.5 as `one`; Polish adds `few` and `many`; Arabic uses all six; Japanese only `other`. ``PluralRules`` says
/// which category a number falls in. In a trema file a plural text is one `<text>` per category, keyed
/// `base#category` (`inbox.count#one`, `inbox.count#other`); see ``TremaDocument/plurals``.
public enum PluralCategory: String, CaseIterable, Sendable, Comparable {
    /// Arabic's 0, Latvian's 10 and 20, Welsh's 0.
    case zero
    /// English's 1, French's 0 and 1.5, Russian's 21.
    case one
    /// Arabic's and Slovenian's 2.
    case two
    /// Polish's 2 to 4, Arabic's 3 to 10.
    case few
    /// Polish's 5 to 21, Arabic's 11 to 99, French's millions.
    case many
    /// Every other number; every language has it, and a plural text must give it.
    case other

    /// CLDR's order: `zero` first, `other` last.
    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
