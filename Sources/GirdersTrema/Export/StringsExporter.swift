import Foundation
import GirdersSupport

/// Apple `.strings` files: `<lang>.lproj/<table>.strings` with `"key" = "value";` lines in file order.
///
/// With default options the output is what GirdersSwift's trema.rb wrote for the files it could handle, except
/// that every character is escaped correctly: `\`, `"`, newline, carriage return, tab and other control
/// characters (trema.rb escaped only `"`, so a backslash or a control character broke the file).
public enum StringsExporter {
    /// Bytes of markup an exported text takes in one language, besides its own (see `exportCapacity`).
    static let markupPerText = 64

    /// One `.strings` file per language, and a `.stringsdict` beside it for a language with plural texts.
    ///
    /// The `.strings` file also carries each plural form as `"base#category"`, which is what ``Translator`` reads
    /// on every platform; the `.stringsdict` (see ``StringsDictExporter``) is what Apple's own APIs read.
    public static func export(_ document: TremaDocument, options: ExportOptions = ExportOptions()) -> [ExportedFile] {
        let entries = document.entries(options)
        let capacity = document.exportCapacity(languages: 1, perText: markupPerText)
        return document.exportLanguages(options).flatMap { language in
            var out = ByteWriter(capacity: capacity)
            var plurals: [(TremaPlural, [TremaDocument.PluralForm])] = []
            document.forEachMessage(for: language, options, entries: entries) { message in
                switch message {
                case .text(let text, _, let meaning):
                    writeEntry(text.key, meaning, context: text.context, options, to: &out)
                case .plural(let plural, let forms):
                    plurals.append((plural, forms))
                    for (index, form) in forms.enumerated() {
                        let context = index == 0 ? plural.context : ""
                        writeEntry(
                            plural.key + "#" + form.category.rawValue, form.meaning, context: context, options, to: &out
                        )
                    }
                }
            }
            let path = "\(language).lproj/\(options.table)"
            let strings = ExportedFile(path: path + ".strings", data: out.takeData())
            guard !plurals.isEmpty else { return [strings] }
            return [strings, ExportedFile(path: path + ".stringsdict", data: StringsDictExporter.file(plurals))]
        }
    }

    private static func writeEntry(
        _ key: String, _ meaning: String, context: String, _ options: ExportOptions, to out: inout ByteWriter
    ) {
        if options.includesComments && !context.isEmpty {
            out.write("/* ")
            out.write(comment(context))
            out.write(" */\n")
        }
        out.write(UInt8(ascii: "\""))
        out.write(key, escaping: table)
        out.write("\" = \"")
        out.write(meaning, escaping: table)
        out.write("\";\n")
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

    /// `text` safe inside `/* ... */`: `*/` cannot end the comment early, also where a combining mark follows it.
    static func comment(_ text: String) -> String {
        text.containsUTF8(UInt8(ascii: "*")) ? text.replacingScalars("*/", with: "* /") : text
    }
}
