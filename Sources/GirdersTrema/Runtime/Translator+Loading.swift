public import Foundation

extension Translator {
    /// Tables from `<folder>/<lang>.lproj/<table>.strings`, read with ``StringsFileReader``.
    public convenience init(
        folder: URL, table: String = "messages", masterLanguage: String, language: String? = nil,
        onMiss: (@Sendable (_ key: String, _ language: String) -> Void)? = nil
    ) throws(TremaError) {
        self.init(
            tables: try Self.tables(in: folder, table: table), masterLanguage: masterLanguage, language: language,
            onMiss: onMiss)
    }

    /// Tables from a bundle's `.lproj` folders, as GirdersSwift found them with nothing configured. The master
    /// language is Info.plist's development region when the bundle has one, else the only language with a table,
    /// else the user's (see `SystemLanguage.development`). Never traps, on Linux neither (where
    /// `Bundle.developmentLocalization` does without an Info.plist).
    public convenience init(
        bundle: Bundle, table: String = "messages", language: String? = nil,
        onMiss: (@Sendable (_ key: String, _ language: String) -> Void)? = nil
    ) throws(TremaError) {
        let tables = try Self.tables(in: bundle.resourceURL ?? bundle.bundleURL, table: table)
        let master = SystemLanguage.development(
            of: bundle, tables: Array(tables.keys), preferred: SystemLanguage.preferred())
        self.init(tables: tables, masterLanguage: master, language: language, onMiss: onMiss)
    }

    /// `<folder>/<lang>.lproj/<table>.strings` for every language that has one.
    static func tables(in folder: URL, table: String) throws(TremaError) -> [String: [String: String]] {
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
        return tables
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
