import Foundation
import GirdersSupport

/// Translated texts for several languages, with trema's fallback: the requested language, then its base
/// language (`de` for `de-CH`), then the master language, then `?key?`.
///
/// Load one from a `.trm` file, a ``TremaDocument``, `.lproj` tables in a folder or a bundle. Arguments fill printf
/// placeholders (`%@`, `%d`, `%1$@`, ...) in the language's locale; a placeholder that does not fit its argument
/// prints as written instead of crashing, and `%%` prints `%`. Immutable and `Sendable`: share one across threads;
/// ``Translation/shared`` is the instance ``translate(_:_:)`` uses.
///
/// ```swift
/// let texts = try Translator(trm: URL(fileURLWithPath: "texts.trm"), language: "en")
/// texts.translate("app_name")                    // "Your EN App Name"
/// texts.translate("welcome", language: "de", arguments: ["Ada"])
/// ```
public final class Translator: Sendable {
    /// The language used when a call names none.
    public let language: String
    /// The language every other falls back to.
    public let masterLanguage: String
    private let tables: [String: [String: String]]
    private let onMiss: (@Sendable (_ key: String, _ language: String) -> Void)?

    /// A translator over tables (language → key → value). `onMiss` hears about every key found in no table.
    public init(
        tables: [String: [String: String]], masterLanguage: String, language: String? = nil,
        onMiss: (@Sendable (_ key: String, _ language: String) -> Void)? = nil
    ) {
        self.tables = tables
        self.masterLanguage = masterLanguage
        self.language = language ?? Self.preferredLanguage(among: Array(tables.keys), master: masterLanguage)
        self.onMiss = onMiss
    }

    /// The languages with a table.
    public var languages: [String] { tables.keys.sorted() }

    /// The text for `key` in `language` (or ``language``), formatted with `arguments` in that language's locale.
    ///
    /// Text without `%` is returned as it is. Otherwise, as GirdersSwift did, it is always formatted (`%%` is one
    /// `%`, with or without arguments), each placeholder on its own,
    /// so the result is the same on Linux and Apple platforms: numbers without grouping, the language's decimal
    /// separator, `%s` taking Swift strings like `%@` (trema files shared with Android use `%s`), and a
    /// placeholder without an argument left as it is instead of reading garbage. An argument of the wrong kind
    /// (an `Int` for `%@`, a `String` for `%d`) is written as its description: a translation can never crash the
    /// app (see `PlaceholderFormatter`).
    public func translate(_ key: String, language: String? = nil, arguments: [any CVarArg] = []) -> String {
        let wanted = language ?? self.language
        guard let (format, found) = lookup(key, wanted) else {
            onMiss?(key, wanted)
            return "?\(key)?"
        }
        return Self.filled(format, language: found, arguments: arguments)
    }

    /// `format` filled in `language`'s locale. GirdersSwift always formatted, so `%%` shows as `%` with or without
    /// arguments; text without `%` is returned as it is.
    private static func filled(_ format: String, language: String, arguments: [any CVarArg]) -> String {
        guard format.containsUTF8(UInt8(ascii: "%")) else { return format }
        return Self.format(
            format, decimalSeparator: Locale(identifier: language).decimalSeparator ?? ".", arguments: arguments)
    }

    /// The plural text `key` (its forms keyed `key#one`, `key#other`, ...; see ``TremaPlural``) in the form
    /// `count` takes in the language, by CLDR's rules (``PluralRules``), formatted with `arguments` as
    /// ``translate(_:language:arguments:)`` formats. The count is only chosen by: pass it among `arguments` too
    /// when the text shows it (the generated accessors do).
    ///
    /// The language is the first of the fallback chain whose table has the plural's `other` form; in it, a
    /// category without its own form takes `other`'s. No `other` form anywhere is a miss: `?key?`.
    public func translate(
        _ key: String, count: Int, language: String? = nil, arguments: [any CVarArg] = []
    ) -> String {
        translatePlural(key, language: language, arguments: arguments) { _ in PluralOperands(count) }
    }

    /// ``translate(_:count:language:arguments:)-(_,Int,_,_)`` for a decimal count: its operands are the digits the
    /// `other` form's count placeholder shows, as `String(format:)` prints them (`%.1f` shows `1.0`, which is not `1`;
    /// `%f` shows `1.000000`; `%g` shows `1` for 1.0000001), or the shortest digits when the form shows the count
    /// otherwise. NaN and the infinities take `other`.
    public func translate(
        _ key: String, count: Double, language: String? = nil, arguments: [any CVarArg] = []
    ) -> String {
        translatePlural(key, language: language, arguments: arguments) { other in
            TremaPlural.countOperands(count, in: other)
        }
    }

    private func translatePlural(
        _ key: String, language: String?, arguments: [any CVarArg], operands: (String) -> PluralOperands?
    ) -> String {
        let wanted = language ?? self.language
        for candidate in candidates(wanted) {
            guard let table = tables[candidate], let other = table[key + "#other"] else { continue }
            let category = operands(other).map { PluralRules(language: candidate).category(for: $0) } ?? .other
            let format = category == .other ? other : table[key + "#" + category.rawValue] ?? other
            return Self.filled(format, language: candidate, arguments: arguments)
        }
        onMiss?(key, wanted)
        return "?\(key)?"
    }

    static func format(_ format: String, decimalSeparator: String, arguments: [any CVarArg]) -> String {
        PlaceholderFormatter.format(format, decimalSeparator: decimalSeparator, arguments: arguments)
    }

    /// The languages tried for `language`: itself, its base language, the master language.
    private func candidates(_ language: String) -> [String] {
        var candidates = [language]
        if let base = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init),
            base != language
        {
            candidates.append(base)
        }
        candidates.append(masterLanguage)
        return candidates
    }

    private func lookup(_ key: String, _ language: String) -> (String, String)? {
        for candidate in candidates(language) {
            if let value = tables[candidate]?[key] { return (value, candidate) }
        }
        return nil
    }

    /// The first of the user's preferred languages that has a table (exactly or by base language), else `master`.
    static func preferredLanguage(among available: [String], master: String) -> String {
        for preferred in SystemLanguage.preferred() {
            if available.contains(preferred) { return preferred }
            let base = String(preferred.prefix { $0 != "-" && $0 != "_" })
            if available.contains(base) { return base }
        }
        return master
    }
}
