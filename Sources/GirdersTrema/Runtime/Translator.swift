import Foundation

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
        // GirdersSwift always formatted, so `%%` shows as `%` with or without arguments; text without `%` is
        // returned as it is.
        guard format.utf8.contains(UInt8(ascii: "%")) else { return format }
        return Self.format(
            format, decimalSeparator: Locale(identifier: found).decimalSeparator ?? ".", arguments: arguments)
    }

    static func format(_ format: String, decimalSeparator: String, arguments: [any CVarArg]) -> String {
        PlaceholderFormatter.format(format, decimalSeparator: decimalSeparator, arguments: arguments)
    }

    private func lookup(_ key: String, _ language: String) -> (String, String)? {
        var candidates = [language]
        if let base = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init),
            base != language
        {
            candidates.append(base)
        }
        candidates.append(masterLanguage)
        for candidate in candidates {
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
