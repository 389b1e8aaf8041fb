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

    /// Options; every part has a default.
    public init(
        languages: [String]? = nil, statuses: Set<TremaStatus>? = nil, fillsFromMaster: Bool = false,
        readsEscapes: Bool = true, table: String = "messages", includesComments: Bool = false,
        androidDefaultLanguage: String? = nil, swiftTypeName: String = "Texts", sourceName: String = "trema file"
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
    }
}

/// One exported entry: the text and the value chosen for a language.
struct ExportEntry {
    let text: TremaText
    let value: TremaValue
    let meaning: String
}

extension TremaDocument {
    /// The languages an export covers.
    func exportLanguages(_ options: ExportOptions) -> [String] {
        options.languages ?? languages
    }

    /// The entries of `language` in file order under `options`: filtered by status, filled from the master
    /// language when asked.
    func entries(for language: String, _ options: ExportOptions) -> [ExportEntry] {
        texts.compactMap { text in
            let allowed = { (value: TremaValue) in options.statuses?.contains(value.status) ?? true }
            var chosen = text.value(for: language).flatMap { allowed($0) ? $0 : nil }
            if chosen == nil, options.fillsFromMaster, language != masterLanguage {
                chosen = text.value(for: masterLanguage).flatMap { allowed($0) ? $0 : nil }
            }
            guard let value = chosen else { return nil }
            return ExportEntry(text: text, value: value, meaning: value.meaning(readingEscapes: options.readsEscapes))
        }
    }
}
