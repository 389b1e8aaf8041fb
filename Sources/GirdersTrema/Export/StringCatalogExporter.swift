import Foundation

/// An Xcode String Catalog (`<table>.xcstrings`, JSON) with every key and language.
///
/// Trema statuses become catalog states: `initial` is `needs_review`, `translated`, `verified` and `special` are
/// `translated`. Contexts become comments. Keys and languages are sorted and the layout is Xcode's (two-space
/// indentation, `" : "`), so a catalog under version control changes only where the texts change.
public enum StringCatalogExporter {
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
        var out = ByteWriter(capacity: 1 << 16)
        out.write("{\n  \"sourceLanguage\" : ")
        writeString(document.masterLanguage, to: &out)
        out.write(",\n  \"strings\" : {")
        for (index, text) in document.texts.sorted(by: { $0.key < $1.key }).enumerated() {
            out.write(index == 0 ? "\n    " : ",\n    ")
            writeString(text.key, to: &out)
            out.write(" : {\n")
            if !text.context.isEmpty {
                out.write("      \"comment\" : ")
                writeString(text.context, to: &out)
                out.write(",\n")
            }
            out.write("      \"extractionState\" : \"manual\",\n      \"localizations\" : {")
            var written = 0
            for language in languages {
                guard let value = document.chosenValue(of: text, for: language, options) else { continue }
                out.write(written == 0 ? "\n        " : ",\n        ")
                written += 1
                writeString(language, to: &out)
                out.write(" : {\n          \"stringUnit\" : {\n            \"state\" : ")
                writeString(state(for: value.status), to: &out)
                out.write(",\n            \"value\" : ")
                writeString(value.meaning(readingEscapes: options.readsEscapes), to: &out)
                out.write("\n          }\n        }")
            }
            out.write(written == 0 ? "}\n    }" : "\n      }\n    }")
        }
        out.write(document.texts.isEmpty ? "},\n" : "\n  },\n")
        out.write("  \"version\" : \"1.0\"\n}\n")
        return [ExportedFile(path: "\(options.table).xcstrings", data: out.data)]
    }

    /// A JSON string literal.
    static func writeString(_ text: String, to out: inout ByteWriter) {
        out.write(UInt8(ascii: "\""))
        if text.unicodeScalars.contains(where: isInvisible) {
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
        [0xFEFF, 0xFFFE, 0xFFFF, 0x2028, 0x2029].contains(scalar.value)
    }

    private static let jsonTable = EscapeTable(
        [UInt8(ascii: "\""): "\\\"", UInt8(ascii: "\\"): "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"],
        controlPrefix: "\\u", uppercaseHex: false)
}
