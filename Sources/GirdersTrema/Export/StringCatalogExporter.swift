import Foundation
import GirdersSupport

/// An Xcode String Catalog (`<table>.xcstrings`, JSON) with every key and language.
///
/// Trema statuses become catalog states: `initial` is `needs_review`, `translated`, `verified` and `special` are
/// `translated`. Contexts become comments. Keys and languages are sorted and the layout is Xcode's (two-space
/// indentation, `" : "`), so a catalog under version control changes only where the texts change.
public enum StringCatalogExporter {
    /// Bytes of markup an exported text takes in one language, besides its own (see `exportCapacity`).
    static let markupPerText = 160

    /// The catalog state for a trema status.
    public static func state(for status: TremaStatus) -> String {
        status == .initial ? "needs_review" : "translated"
    }

    /// One `.xcstrings` file.
    public static func export(
        _ document: TremaDocument, options: ExportOptions = ExportOptions()
    ) throws(TremaError)
        -> [ExportedFile]
    {
        let languages = document.exportLanguages(options).sorted()
        let rules = languages.map { PluralRules(language: $0) }
        var out = ByteWriter(capacity: document.exportCapacity(languages: languages.count, perText: markupPerText))
        out.write("{\n  \"sourceLanguage\" : ")
        writeString(document.masterLanguage, to: &out)
        out.write(",\n  \"strings\" : {")
        let entries = document.entries(options).map { entry in
            switch entry {
            case .text(let index): (key: document.texts[index].key, entry: entry)
            case .plural(let plural): (key: plural.key, entry: entry)
            }
        }.sorted { $0.key < $1.key }
        for (index, (key, entry)) in entries.enumerated() {
            if index > 0 && entries[index - 1].key == key {
                let location = document.text(forKey: key)?.location.map { "\($0): " } ?? ""
                throw .exportFailed(reason: "\(location)'\(key)' is both a text and a plural (keyed '\(key)#...')")
            }
            out.write(index == 0 ? "\n    " : ",\n    ")
            writeString(key, to: &out)
            out.write(" : {\n")
            let context: String
            switch entry {
            case .text(let index): context = document.texts[index].context
            case .plural(let plural): context = plural.context
            }
            if !context.isEmpty {
                out.write("      \"comment\" : ")
                writeString(context, to: &out)
                out.write(",\n")
            }
            out.write("      \"extractionState\" : \"manual\",\n      \"localizations\" : {")
            var written = 0
            for (language, rule) in zip(languages, rules) {
                switch entry {
                case .text(let index):
                    guard let value = document.chosenValue(of: document.texts[index], for: language, options) else {
                        continue
                    }
                    out.write(written == 0 ? "\n        " : ",\n        ")
                    writeString(language, to: &out)
                    out.write(" : {\n")
                    writeUnit(
                        value, value.meaning(readingEscapes: options.readsEscapes), indent: "          ", to: &out)
                    out.write("\n        }")
                case .plural(let plural):
                    let forms = document.chosenForms(of: plural, for: language, rules: rule, options)
                    guard !forms.isEmpty else { continue }
                    out.write(written == 0 ? "\n        " : ",\n        ")
                    writeString(language, to: &out)
                    out.write(" : {\n          \"variations\" : {\n            \"plural\" : {")
                    for (number, form) in forms.enumerated() {
                        out.write(number == 0 ? "\n              " : ",\n              ")
                        writeString(form.category.rawValue, to: &out)
                        out.write(" : {\n")
                        writeUnit(form.value, form.meaning, indent: "                ", to: &out)
                        out.write("\n              }")
                    }
                    out.write("\n            }\n          }\n        }")
                }
                written += 1
            }
            out.write(written == 0 ? "}\n    }" : "\n      }\n    }")
        }
        out.write(entries.isEmpty ? "},\n" : "\n  },\n")
        out.write("  \"version\" : \"1.0\"\n}\n")
        return [ExportedFile(path: "\(options.table).xcstrings", data: out.takeData())]
    }

    /// `"stringUnit" : { "state" : ..., "value" : ... }` at `indent`.
    private static func writeUnit(_ value: TremaValue, _ meaning: String, indent: String, to out: inout ByteWriter) {
        out.write(indent)
        out.write("\"stringUnit\" : {\n")
        out.write(indent)
        out.write("  \"state\" : ")
        writeString(state(for: value.status), to: &out)
        out.write(",\n")
        out.write(indent)
        out.write("  \"value\" : ")
        writeString(meaning, to: &out)
        out.write("\n")
        out.write(indent)
        out.write("}")
    }

    /// A JSON string literal.
    static func writeString(_ text: String, to out: inout ByteWriter) {
        out.write(UInt8(ascii: "\""))
        // Each invisible scalar's UTF-8 starts with E2 or EF; most texts have neither byte.
        let mayHaveInvisible = text.containsUTF8 { $0 == 0xE2 || $0 == 0xEF }
        if mayHaveInvisible && text.unicodeScalars.contains(where: isInvisible) {
            // Written as \uXXXX: Foundation's JSON reader on Linux drops a raw U+FEFF at the start of a string.
            var segment = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                guard isInvisible(scalar) else {
                    segment.append(scalar)
                    continue
                }
                out.write(String(segment), escaping: jsonTable)
                segment = String.UnicodeScalarView()
                out.write("\\u" + String(scalar.value, radix: 16, uppercase: true))
            }
            out.write(String(segment), escaping: jsonTable)
        } else {
            out.write(text, escaping: jsonTable)
        }
        out.write(UInt8(ascii: "\""))
    }

    /// The byte-order mark, the non-characters U+FFFE and U+FFFF, and the line and paragraph separators: valid in
    /// JSON but easy for a reader to drop or break on, so written as escapes.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFEFF, 0xFFFE, 0xFFFF, 0x2028, 0x2029: true
        default: false
        }
    }

    private static let jsonTable = EscapeTable(
        [UInt8(ascii: "\""): "\\\"", UInt8(ascii: "\\"): "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"],
        controlPrefix: "\\u", uppercaseHex: false)
}
