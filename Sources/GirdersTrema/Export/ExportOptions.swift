/// What an export includes and how it is named; every exporter reads the parts that apply to it.
public struct ExportOptions: Sendable {
    /// The languages to export, in order; `nil` exports every language in the document.
    public var languages: [String]?
    /// The statuses to export; a value with another status counts as missing. `nil` exports every status.
    public var statuses: Set<TremaStatus>?
    /// Whether a missing value is filled with the master language's.
    public var fillsFromMaster: Bool
    /// Whether values are read as escaped text (`\n` is a newline); see ``TremaEscapes``. On by default.
    public var readsEscapes: Bool
    /// The `.strings` table (file) name and the `.xcstrings` file name: `messages` by default, as trema.rb and
    /// the runtime use.
    public var table: String
    /// Whether exports carry the context as comments.
    public var includesComments: Bool
    /// The language written to Android's `values/`; the master language when `nil`.
    public var androidDefaultLanguage: String?
    /// The name of the generated Swift type: `Texts` by default.
    public var swiftTypeName: String
    /// The name of the source file in generated headers, for example `texts.trm`.
    public var sourceName: String
    /// Whether generated Swift carries every language's values itself instead of reading `.strings` tables at
    /// run time (what the build plugin generates; see ``SwiftEmbeddedTables``). Off by default.
    public var embedsTables: Bool
    /// The document's entries, found once for every format of one conversion (``TremaDocument/entries(_:)``).
    var sharedEntries: [TremaDocument.Entry]?

    /// Options; every part has a default.
    public init(
        languages: [String]? = nil, statuses: Set<TremaStatus>? = nil, fillsFromMaster: Bool = false,
        readsEscapes: Bool = true, table: String = "messages", includesComments: Bool = false,
        androidDefaultLanguage: String? = nil, swiftTypeName: String = "Texts", sourceName: String = "trema file",
        embedsTables: Bool = false
    ) {
        self.languages = languages
        self.statuses = statuses
        self.fillsFromMaster = fillsFromMaster
        self.readsEscapes = readsEscapes
        self.table = table
        self.includesComments = includesComments
        self.androidDefaultLanguage = androidDefaultLanguage
        self.swiftTypeName = swiftTypeName
        self.sourceName = sourceName
        self.embedsTables = embedsTables
    }
}

extension ExportOptions {
    /// The longest table name accepted.
    public static let maximumTableNameLength = 64

    /// Checks every option that becomes part of a path or of generated code, before anything is produced: the
    /// table name (letters, digits, `-`, `_` and inner dots, at most 64 characters), the languages and the
    /// Android default language (language codes, as in the document), and the Swift type name (an identifier).
    /// - Throws: ``TremaError/invalidOption(option:value:reason:)`` naming the first bad option.
    public func validate() throws(TremaError) {
        if !Self.isTableName(table) {
            throw .invalidOption(
                option: "table", value: table,
                reason:
                    "use letters, digits, '-', '_' and inner dots, at most \(Self.maximumTableNameLength) characters")
        }
        for language in (languages ?? []) + (androidDefaultLanguage.map { [$0] } ?? [])
        where !TremaBuilder.isLanguageCode(language) {
            throw .invalidOption(
                option: "language", value: language,
                reason:
                    "not a language code (a letter, then letters, digits, '-' and '_', at most \(TremaBuilder.maximumLanguageCodeLength) characters)"
            )
        }
        if !SwiftSourceExporter.isTypeName(swiftTypeName) {
            throw .invalidOption(
                option: "swiftTypeName", value: swiftTypeName,
                reason: "not a Swift type name (an ASCII identifier of at most 100 characters, not a keyword)")
        }
    }

    static func isTableName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, let last = bytes.last, bytes.count <= maximumTableNameLength,
            first != UInt8(ascii: "."), last != UInt8(ascii: "."), !name.contains("..")
        else { return false }
        return bytes.allSatisfy {
            (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
    }
}

extension TremaDocument {
    /// The languages an export covers.
    func exportLanguages(_ options: ExportOptions) -> [String] {
        options.languages ?? languages
    }

    /// Room for an export holding `languages` languages' worth of the texts: twice their keys', contexts' and
    /// values' bytes (escapes grow them) and `perText` bytes of markup per text and language. Too much costs little
    /// (pages never written are never touched); too little, a copy of the buffer each time it doubles.
    func exportCapacity(languages: Int, perText: Int) -> Int {
        var bytes = 0
        var values = 0
        for text in texts {
            bytes += text.key.utf8.count + text.context.utf8.count
            for value in text.values { bytes += value.text.utf8.count }
            values += text.values.count
        }
        guard values > 0 else { return 1 << 12 }
        let oneLanguage = bytes / max(values / max(texts.count, 1), 1)
        // In floating point: a hostile file's texts times its languages must not overflow before the cap.
        let estimate = (2 * Double(oneLanguage) + Double(perText) * Double(texts.count)) * Double(max(languages, 1))
        return Int(min(max(estimate, Double(1 << 12)), Double(1 << 30)))
    }

    /// The entries an export covers: those found once for all formats of a conversion, or found now.
    func entries(_ options: ExportOptions) -> [Entry] {
        options.sharedEntries ?? entries
    }

    /// Calls `body` with each ordinary text of `language` in file order under `options`, its chosen value and
    /// that value's meaning; plural forms are left out (see ``forEachMessage(for:_:_:)``). Nothing is copied.
    func forEachEntry(
        for language: String, _ options: ExportOptions, _ body: (TremaText, TremaValue, String) throws -> Void
    ) rethrows {
        try forEachMessage(for: language, options) { message in
            if case .text(let text, let value, let meaning) = message { try body(text, value, meaning) }
        }
    }

    /// One entry of an export in one language.
    enum Message {
        /// An ordinary text, its chosen value and the value's meaning.
        case text(TremaText, TremaValue, String)
        /// A plural and its chosen forms in CLDR's order: each a category, the value and its meaning.
        case plural(TremaPlural, [PluralForm])
    }

    /// One chosen form of a plural.
    struct PluralForm {
        let category: PluralCategory
        let value: TremaValue
        let meaning: String
    }

    /// Calls `body` with each text and plural of `language` in file order under `options`; a text or plural without
    /// a value (after filtering statuses and filling from the master language) is left out.
    func forEachMessage(
        for language: String, _ options: ExportOptions, entries: [Entry]? = nil, _ body: (Message) throws -> Void
    ) rethrows {
        let rules = PluralRules(language: language)
        for entry in entries ?? self.entries(options) {
            switch entry {
            case .text(let index):
                let text = texts[index]
                guard let value = chosenValue(of: text, for: language, options) else { continue }
                try body(.text(text, value, value.meaning(readingEscapes: options.readsEscapes)))
            case .plural(let plural):
                let forms = chosenForms(of: plural, for: language, rules: rules, options)
                if !forms.isEmpty { try body(.plural(plural, forms)) }
            }
        }
    }

    /// The forms an export uses for `plural` in `language`: the language's own (filtered by status), or, when it
    /// has none and filling is asked for, the master language's; only the categories the language uses (Android
    /// and Apple ignore the others, and the runtime never picks them), and none without `other`.
    func chosenForms(
        of plural: TremaPlural, for language: String, rules: PluralRules, _ options: ExportOptions
    ) -> [PluralForm] {
        func forms(_ source: String) -> [PluralForm] {
            plural.categories.compactMap { category in
                guard rules.categories.contains(category), let value = plural.forms[category]?.value(for: source),
                    options.statuses?.contains(value.status) ?? true
                else { return nil }
                return PluralForm(
                    category: category, value: value, meaning: value.meaning(readingEscapes: options.readsEscapes))
            }
        }
        var chosen = forms(language)
        if chosen.isEmpty && options.fillsFromMaster && language != masterLanguage { chosen = forms(masterLanguage) }
        return chosen.contains { $0.category == .other } ? chosen : []
    }

    /// The value an export uses for `text` in `language`: filtered by status, filled from the master language
    /// when asked.
    func chosenValue(of text: TremaText, for language: String, _ options: ExportOptions) -> TremaValue? {
        // Found by position and copied once (a value holds four strings: each copy retains them).
        func allowed(_ language: String) -> Int? {
            guard let index = text.values.firstIndex(where: { $0.language == language }) else { return nil }
            return options.statuses?.contains(text.values[index].status) ?? true ? index : nil
        }
        if let index = allowed(language) { return text.values[index] }
        guard options.fillsFromMaster && language != masterLanguage, let index = allowed(masterLanguage) else {
            return nil
        }
        return text.values[index]
    }
}
