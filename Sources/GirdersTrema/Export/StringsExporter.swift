import Foundation

/// Apple `.strings` files: `<lang>.lproj/<table>.strings` with `"key" = "value";` lines in file order.
///
/// With default options the output is what GirdersSwift's trema.rb wrote for the files it could handle, except
/// that every character is escaped correctly: `\`, `"`, newline, carriage return, tab and other control
/// characters (trema.rb escaped only `"`, so a backslash or a control character broke the file).
public enum StringsExporter {
    /// One file per language.
    public static func export(_ document: TremaDocument, options: ExportOptions = ExportOptions()) -> [ExportedFile] {
        document.exportLanguages(options).map { language in
            var out = ""
            for entry in document.entries(for: language, options) {
                if options.includesComments && !entry.text.context.isEmpty {
                    out += "/* \(comment(entry.text.context)) */\n"
                }
                out += "\"\(escape(entry.text.key))\" = \"\(escape(entry.meaning))\";\n"
            }
            return ExportedFile(path: "\(language).lproj/\(options.table).strings", data: Data(out.utf8))
        }
    }

    /// `text` escaped for a quoted `.strings` string.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` safe inside `/* ... */`: `*/` cannot end the comment early.
    static func comment(_ text: String) -> String {
        text.replacingOccurrences(of: "*/", with: "* /")
    }
}
