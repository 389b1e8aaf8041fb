/// A trema file: the master language and the texts in file order.
///
/// Read one with `TremaDocument(contentsOf:)` or `TremaDocument(data:file:)`: the parser checks every rule of the
/// format and throws a ``TremaError`` naming the file, line and column of the first problem; it never crashes on
/// hostile input and reads linearly. Export it with `export(_:options:)` (``TremaExportFormat``), lint it with
/// ``TremaLinter``, translate with ``Translator/init(document:language:onMiss:)``. A value type: `Sendable`.
///
/// ```swift
/// let document = try TremaDocument(contentsOf: URL(fileURLWithPath: "texts.trm"))
/// document.masterLanguage            // "de"
/// document.text(forKey: "app_name")?.value(for: "en")?.meaning()
/// ```
public struct TremaDocument: Sendable, Equatable {
    /// The language every other translates from (`masterLang`).
    public var masterLanguage: String
    /// The texts in file order; keys are unique.
    public var texts: [TremaText]
    /// The schema location attribute as found (name and URL), written back unchanged; `nil` when absent.
    public var schemaLocation: SchemaLocation?

    /// A document.
    public init(masterLanguage: String, texts: [TremaText] = [], schemaLocation: SchemaLocation? = .standard) {
        self.masterLanguage = masterLanguage
        self.texts = texts
        self.schemaLocation = schemaLocation
    }

    /// The text for `key`, if there is one.
    public func text(forKey key: String) -> TremaText? {
        texts.first { $0.key == key }
    }

    /// Every language used, the master language first, then in order of first appearance.
    public var languages: [String] {
        var result = [masterLanguage]
        var seen: Set<String> = []  // once there are many: a look through a few is quicker than hashing
        for text in texts {
            for value in text.values {
                if seen.isEmpty {
                    guard !result.contains(value.language) else { continue }
                    result.append(value.language)
                    if result.count > 16 { seen = Set(result) }
                } else if seen.insert(value.language).inserted {
                    result.append(value.language)
                }
            }
        }
        return result
    }

    /// Where the first value in `language` stands, when the document was parsed from a file.
    func firstLocation(of language: String) -> SourceLocation? {
        for text in texts {
            if let value = text.value(for: language) { return value.location }
        }
        return nil
    }

    /// This document with `other`'s values on top, as trema.rb combined two files: a value of `other` replaces
    /// the same key and language here; keys only in `other` are appended in its order. Contexts of `other` win
    /// when not empty.
    public func overriding(with other: TremaDocument) -> TremaDocument {
        var result = self
        var index: [String: Int] = [:]
        for (position, text) in result.texts.enumerated() { index[text.key] = position }
        for text in other.texts {
            guard let position = index[text.key] else {
                index[text.key] = result.texts.count
                result.texts.append(text)
                continue
            }
            if !text.context.isEmpty { result.texts[position].context = text.context }
            for value in text.values {
                if let existing = result.texts[position].values.firstIndex(where: { $0.language == value.language }) {
                    result.texts[position].values[existing] = value
                } else {
                    result.texts[position].values.append(value)
                }
            }
        }
        return result
    }
}

/// The attribute that points at trema-1.0.xsd, in one of the spellings found in real files.
public struct SchemaLocation: Sendable, Hashable {
    /// The attribute name: `noNamespaceSchemaLocation` or `xsi:noNamespaceSchemaLocation`.
    public var attribute: String
    /// The schema's URL as written in the attribute; kept so a written file keeps it, never fetched.
    public var url: String

    /// A schema location.
    public init(attribute: String, url: String) {
        self.attribute = attribute
        self.url = url
    }

    /// The spelling trema tools have always written.
    public static let standard = SchemaLocation(
        attribute: "noNamespaceSchemaLocation", url: "http://software.group.nca/trema/schema/trema-1.0.xsd")

    /// The names of the root element's attribute that may carry the schema location.
    public static let attributeNames = ["noNamespaceSchemaLocation", "xsi:noNamespaceSchemaLocation"]

    /// Whether `url` names trema-1.0.xsd: the old `software.group.nca` location or the copy in
    /// netceteragroup/trema-core on GitHub (any branch, raw or blob).
    public static func isKnown(_ url: String) -> Bool {
        guard url.hasSuffix("/trema-1.0.xsd") else { return false }
        return url.hasPrefix("http://software.group.nca/trema/schema/")
            || url.hasPrefix("https://software.group.nca/trema/schema/")
            || url.contains("github.com/netceteragroup/trema-core/")
            || url.contains("githubusercontent.com/netceteragroup/trema-core/")
    }
}
