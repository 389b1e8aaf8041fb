import Foundation

/// An Xcode String Catalog (`<table>.xcstrings`, JSON) with every key and language.
///
/// Trema statuses become catalog states: `initial` is `needs_review`, `translated`, `verified` and `special` are
/// `translated`. Contexts become comments.
public enum StringCatalogExporter {
    /// The catalog state for a trema status.
    public static func state(for status: TremaStatus) -> String {
        status == .initial ? "needs_review" : "translated"
    }

    /// One `.xcstrings` file.
    public static func export(_ document: TremaDocument, options: ExportOptions = ExportOptions()) throws(TremaError)
        -> [ExportedFile]
    {
        var strings: [String: [String: Any]] = [:]
        for text in document.texts {
            var entry: [String: Any] = ["extractionState": "manual", "localizations": [String: Any]()]
            if !text.context.isEmpty { entry["comment"] = text.context }
            strings[text.key] = entry
        }
        for language in document.exportLanguages(options) {
            for item in document.entries(for: language, options) {
                var localizations = strings[item.text.key]?["localizations"] as? [String: Any] ?? [:]
                localizations[language] = [
                    "stringUnit": ["state": state(for: item.value.status), "value": item.meaning]
                ]
                strings[item.text.key]?["localizations"] = localizations
            }
        }
        let catalog: [String: Any] = [
            "sourceLanguage": document.masterLanguage, "strings": strings, "version": "1.0",
        ]
        do {
            let data = try JSONSerialization.data(
                withJSONObject: catalog, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            return [ExportedFile(path: "\(options.table).xcstrings", data: data + Data("\n".utf8))]
        } catch {
            throw .exportFailed(reason: "cannot write the string catalog: \(error.localizedDescription)")
        }
    }
}
