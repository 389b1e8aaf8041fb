import GirdersSupport

/// A plural text: the texts of one document keyed `base#category` (`inbox.count#one`, `inbox.count#other`),
/// grouped under `base`.
///
/// A plural stays valid trema 1.0 (each form is an ordinary `<text>`), so every tool that reads trema reads it;
/// Girders groups the forms and exports them as `.stringsdict`, String Catalog plural variations and Android
/// `<plurals>`, and ``Translator/translate(_:count:language:arguments:)-(_,Int,_,_)`` picks the form by the language's CLDR rule
/// (``PluralRules``). A key whose part after the last `#` is not a category name is an ordinary text.
///
/// The count is the first numeric placeholder (`%d`, `%f`, ...) of the master language's `other` form; every
/// other placeholder is an ordinary argument.
public struct TremaPlural: Sendable, Equatable {
    /// The base key (`inbox.count`).
    public let key: String
    /// The form texts by category.
    public internal(set) var forms: [PluralCategory: TremaText]
    /// Where the first form in the file stands, when parsed from a file.
    public let location: SourceLocation?

    /// The categories given, in CLDR's order.
    public var categories: [PluralCategory] { forms.keys.sorted() }

    /// The first non-empty context of the forms, `other`'s first.
    public var context: String {
        if let other = forms[.other]?.context, !other.isEmpty { return other }
        for category in categories {
            if let context = forms[category]?.context, !context.isEmpty { return context }
        }
        return ""
    }

    /// The forms of `language` whose value exists, by category.
    public func values(for language: String) -> [PluralCategory: TremaValue] {
        var result: [PluralCategory: TremaValue] = [:]
        for (category, text) in forms {
            if let value = text.value(for: language) { result[category] = value }
        }
        return result
    }

    /// The count argument of a form: the first placeholder, by position, that takes an integer or a double.
    public static func countArgument(in format: String) -> (position: Int, kind: PrintfPlaceholder.Kind)? {
        let kinds = PrintfPlaceholder.argumentKinds(format)
        for position in kinds.keys.sorted() {
            if let kind = kinds[position], kind == .integer || kind == .double { return (position, kind) }
        }
        return nil
    }

    /// The placeholder of the count argument in `format`, if it has one.
    static func countPlaceholder(in format: String) -> PrintfPlaceholder? {
        guard let count = countArgument(in: format) else { return nil }
        var next = 1
        for placeholder in PrintfPlaceholder.scan(format) where placeholder.takesArgument {
            let position = placeholder.position ?? next
            if placeholder.position == nil { next += 1 }
            if position == count.position { return placeholder }
        }
        return nil
    }

    /// The operands of a decimal count as the count placeholder of `format` prints it (`String(format:)`, no locale):
    /// `%f` shows `1.000000`, so 1 takes English `other`; `%g` shows `1` for 1.0000001, so it takes `one`; `%e` and
    /// `%a` are read as the number their digits show. A form that shows the count otherwise, or not at all, uses the
    /// shortest digits. `nil` for NaN and the infinities, which take `other` in every language.
    static func countOperands(_ count: Double, in format: String) -> PluralOperands? {
        guard count.isFinite else { return nil }
        guard let placeholder = countPlaceholder(in: format), placeholder.kind == .double,
            placeholder.isWithinLimits
        else { return PluralOperands(count) }
        // Flags and precision change the digits; the width only pads, and a length letter changes nothing here.
        // The flags lead the modifiers (within limits, they are printf's ASCII grammar); `'` is left out: it groups
        // digits by the locale, and String(format:) here has none.
        var spec = String(placeholder.modifiers.prefix { "+- #0".contains($0) })
        if let point = placeholder.modifiers.firstIndex(of: ".") {
            let precision = placeholder.modifiers[placeholder.modifiers.index(after: point)...].prefix {
                $0.isASCII && $0.isNumber
            }
            spec += "." + precision
        }
        let shown = String(format: "%" + spec + String(placeholder.conversion), count)
        return PluralOperands(shown: shown) ?? PluralOperands(count)
    }
}

extension TremaText {
    /// The base key and category when the key is a plural form (`inbox.count#few`), else `nil`.
    public var pluralForm: (key: String, category: PluralCategory)? {
        Self.pluralForm(of: key)
    }

    static func pluralForm(of key: String) -> (key: String, category: PluralCategory)? {
        guard let hash = key.lastIndexOfUTF8(UInt8(ascii: "#")) else { return nil }
        let base = key[..<hash]
        guard !base.isEmpty, let category = PluralCategory(rawValue: String(key[key.index(after: hash)...])) else {
            return nil
        }
        return (String(base), category)
    }
}

extension TremaDocument {
    /// One entry of an export, in file order: an ordinary text (its index in ``texts``) or a plural (at its first
    /// form's place).
    enum Entry {
        case text(Int)
        case plural(TremaPlural)
    }

    /// The document's plural texts, in the order of their first form.
    public var plurals: [TremaPlural] {
        entries.compactMap {
            if case .plural(let plural) = $0 { plural } else { nil }
        }
    }

    /// Texts and plurals in file order. A document without `#` in any key costs one scan of the keys.
    var entries: [Entry] {
        guard texts.contains(where: { $0.key.containsUTF8(UInt8(ascii: "#")) }) else {
            return texts.indices.map(Entry.text)
        }
        var result: [Entry] = []
        result.reserveCapacity(texts.count)
        var pluralIndex: [String: Int] = [:]
        for (position, text) in texts.enumerated() {
            guard let (base, category) = text.pluralForm else {
                result.append(.text(position))
                continue
            }
            if let index = pluralIndex[base], case .plural(var plural) = result[index] {
                if plural.forms[category] == nil { plural.forms[category] = text }
                result[index] = .plural(plural)
            } else {
                pluralIndex[base] = result.count
                result.append(.plural(TremaPlural(key: base, forms: [category: text], location: text.location)))
            }
        }
        return result
    }
}
