import Foundation

/// Apple `.stringsdict` files: the plural texts of one language as a property list, written by
/// ``StringsExporter`` beside the language's `.strings` file.
///
/// Each plural becomes a `NSStringLocalizedFormatKey` of `%N$#@count@` (N the count's argument) and a `count`
/// variable of rule type `NSStringPluralRuleType` whose `NSStringFormatValueTypeKey` is the count's placeholder
/// (`d`, `ld`, `f`, ...) and whose forms are the categories the language uses (Apple would also honour `zero` for
/// 0 in any language; it is left out where CLDR does not use it, so 0 takes the same form as on Android and in
/// ``Translator``). Every placeholder in the forms is numbered (`%@ has %d` becomes `%1$@ has %2$d`), as a
/// variable's forms need.
public enum StringsDictExporter {
    /// The `.stringsdict` file for `plurals` and their chosen forms in one language.
    static func file(_ plurals: [(TremaPlural, [TremaDocument.PluralForm])]) -> Data {
        var out = ByteWriter(capacity: 1 << 12)
        out.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>

            """)
        for (plural, forms) in plurals {
            let other = forms.first { $0.category == .other }?.meaning ?? ""
            let count = TremaPlural.countArgument(in: other)
            out.write("\t<key>")
            out.write(plural.key, escaping: table)
            out.write("</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%")
            out.write("\(count?.position ?? 1)$#@count@</string>\n\t\t<key>count</key>\n\t\t<dict>\n")
            out.write("\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n")
            out.write("\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>")
            out.write(valueType(in: other))
            out.write("</string>\n")
            for form in forms {
                out.write("\t\t\t<key>\(form.category.rawValue)</key>\n\t\t\t<string>")
                out.write(numbered(form.meaning), escaping: table)
                out.write("</string>\n")
            }
            out.write("\t\t</dict>\n\t</dict>\n")
        }
        out.write("</dict>\n</plist>\n")
        return out.takeData()
    }

    /// The count's conversion with its length letters (`d`, `ld`, `f`); `d` when the form has no count.
    static func valueType(in format: String) -> String {
        guard let placeholder = TremaPlural.countPlaceholder(in: format) else { return "d" }
        return String(placeholder.modifiers.filter { "hlqLzjt".contains($0) }) + String(placeholder.conversion)
    }

    /// `text` with every placeholder that takes an argument numbered: `%@ has %d` is `%1$@ has %2$d`.
    public static func numbered(_ text: String) -> String {
        let placeholders = PrintfPlaceholder.scan(text)
        guard placeholders.contains(where: { $0.takesArgument && $0.position == nil }) else { return text }
        var result = ""
        var cursor = text.startIndex
        var next = 1
        for placeholder in placeholders {
            result += text[cursor..<placeholder.range.lowerBound]
            cursor = placeholder.range.upperBound
            guard placeholder.takesArgument, placeholder.position == nil else {
                result += text[placeholder.range]
                continue
            }
            result += "%\(next)$" + text[text.index(after: placeholder.range.lowerBound)..<placeholder.range.upperBound]
            next += 1
        }
        return result + text[cursor...]
    }

    /// XML text escaping; a carriage return (which an XML reader would turn into a newline) and the characters XML
    /// 1.0 cannot carry are written as character references (a reader refuses the latter: never a silent change).
    private static let table: EscapeTable = {
        var replacements: [UInt8: String] = [
            UInt8(ascii: "&"): "&amp;", UInt8(ascii: "<"): "&lt;", UInt8(ascii: ">"): "&gt;",
        ]
        for byte in UInt8(0)..<0x20 where byte != 0x0A && byte != 0x09 {
            replacements[byte] = "&#x\(String(byte, radix: 16, uppercase: true));"
        }
        return EscapeTable(replacements, controlPrefix: nil)
    }()
}
