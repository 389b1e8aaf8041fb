public import Foundation

extension Translator {
    /// Tables from `<folder>/<lang>.lproj/<table>.strings`, read with ``StringsFileReader``.
    public convenience init(
        folder: URL, table: String = "messages", masterLanguage: String, language: String? = nil,
        onMiss: (@Sendable (_ key: String, _ language: String) -> Void)? = nil
    ) throws(TremaError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .cannotRead(path: folder.path, reason: error.localizedDescription)
        }
        var tables: [String: [String: String]] = [:]
        for name in names where name.hasSuffix(".lproj") {
            let file = folder.appendingPathComponent(name).appendingPathComponent("\(table).strings")
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            tables[String(name.dropLast(6))] = StringsFileReader.table(try StringsFileReader.read(contentsOf: file))
        }
        self.init(tables: tables, masterLanguage: masterLanguage, language: language, onMiss: onMiss)
    }

    /// Tables from a bundle's `.lproj` folders; the master language is the bundle's development localization
    /// (`en` when it has none).
    public convenience init(
        bundle: Bundle, table: String = "messages", language: String? = nil,
        onMiss: (@Sendable (_ key: String, _ language: String) -> Void)? = nil
    ) throws(TremaError) {
        try self.init(
            folder: bundle.resourceURL ?? bundle.bundleURL, table: table,
            masterLanguage: bundle.developmentLocalization ?? "en", language: language, onMiss: onMiss)
    }

    /// Tables straight from a trema document: every value's meaning (escapes read).
    public convenience init(
        document: TremaDocument, language: String? = nil,
        onMiss: (@Sendable (_ key: String, _ language: String) -> Void)? = nil
    ) {
        var tables: [String: [String: String]] = [:]
        for text in document.texts {
            for value in text.values { tables[value.language, default: [:]][text.key] = value.meaning() }
        }
        self.init(tables: tables, masterLanguage: document.masterLanguage, language: language, onMiss: onMiss)
    }

    /// Tables straight from a `.trm` file.
    public convenience init(
        trm url: URL, language: String? = nil, onMiss: (@Sendable (_ key: String, _ language: String) -> Void)? = nil
    ) throws(TremaError) {
        self.init(document: try TremaDocument(contentsOf: url), language: language, onMiss: onMiss)
    }
}
