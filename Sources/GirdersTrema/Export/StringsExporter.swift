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
            var out = ByteWriter()
            document.forEachEntry(for: language, options) { text, _, meaning in
                if options.includesComments && !text.context.isEmpty {
                    out.write("/* ")
                    out.write(comment(text.context))
                    out.write(" */\n")
                }
                out.write(UInt8(ascii: "\""))
                out.write(text.key, escaping: table)
                out.write("\" = \"")
                out.write(meaning, escaping: table)
                out.write("\";\n")
            }
            return ExportedFile(path: "\(language).lproj/\(options.table).strings", data: out.data)
        }
    }

    /// `text` escaped for a quoted `.strings` string.
    public static func escape(_ text: String) -> String {
        var out = ByteWriter(capacity: text.utf8.count + 8)
        out.write(text, escaping: table)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private static let table = EscapeTable(
        [
            UInt8(ascii: "\\"): "\\\\", UInt8(ascii: "\""): "\\\"", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t",
            0x7F: "\\U007F",
        ], controlPrefix: "\\U")

    /// `text` safe inside `/* ... */`: `*/` cannot end the comment early.
    static func comment(_ text: String) -> String {
        text.utf8.contains(UInt8(ascii: "*")) ? text.replacingOccurrences(of: "*/", with: "* /") : text
    }
}
