import Foundation

/// Android string resources: `res/values[-lang]/strings.xml`, the default language (the master language unless
/// chosen otherwise) in `values/`.
///
/// Keys become valid resource names (`key.with.dots` is `key_with_dots`), values are XML- and Android-escaped
/// (`'`, `"`, `\`, a leading `@` or `?`, newlines, tabs), and printf placeholders become positional Android ones:
/// `%@` is `%1$s`, `%i` and `%u` are `%d`; `%%` and `%p` stay as they are.
public enum AndroidExporter {
    /// One `strings.xml` per language.
    /// - Throws: ``TremaError/exportFailed(reason:)`` when two keys map to the same resource name.
    public static func export(_ document: TremaDocument, options: ExportOptions = ExportOptions()) throws(TremaError)
        -> [ExportedFile]
    {
        var owners: [String: String] = [:]
        for text in document.texts {
            let name = resourceName(text.key)
            if let other = owners[name] {
                throw .exportFailed(reason: "the keys '\(other)' and '\(text.key)' both become the Android name '\(name)'")
            }
            owners[name] = text.key
        }
        let defaultLanguage = options.androidDefaultLanguage ?? document.masterLanguage
        return document.exportLanguages(options).map { language in
            var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n"
            for entry in document.entries(for: language, options) {
                if options.includesComments && !entry.text.context.isEmpty {
                    out += "  <!-- \(entry.text.context.replacingOccurrences(of: "--", with: "- -")) -->\n"
                }
                out += "  <string name=\"\(resourceName(entry.text.key))\">\(escape(positional(entry.meaning)))</string>\n"
            }
            out += "</resources>\n"
            return ExportedFile(path: "res/\(folder(for: language, default: defaultLanguage))/strings.xml", data: Data(out.utf8))
        }
    }

    /// `values` for the default language, `values-fr`, and `values-pt-rBR` for `pt-BR` or `pt_BR`.
    static func folder(for language: String, default defaultLanguage: String) -> String {
        if language == defaultLanguage { return "values" }
        let parts = language.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard parts.count == 2, parts[1].count == 2 else { return "values-\(language)" }
        return "values-\(parts[0])-r\(parts[1].uppercased())"
    }

    /// A valid Android resource name for `key`: characters other than letters, digits and `_` become `_`, a
    /// leading digit gets a `_` in front, and Java keywords get one behind.
    public static func resourceName(_ key: String) -> String {
        var name = String(key.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                ? Character(scalar) : "_"
        })
        if name.first?.isNumber ?? true { name = "_" + name }
        if javaKeywords.contains(name) { name += "_" }
        return name
    }

    static let javaKeywords: Set<String> = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
        "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
        "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
        "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null",
    ]

    /// Printf placeholders made positional for Android.
    public static func positional(_ text: String) -> String {
        let placeholders = PrintfPlaceholder.scan(text)
        guard !placeholders.isEmpty else { return text }
        var result = ""
        var cursor = text.startIndex
        var next = 1
        for placeholder in placeholders {
            result += text[cursor..<placeholder.range.lowerBound]
            cursor = placeholder.range.upperBound
            switch placeholder.kind {
            case .percent, .pointer:
                result += text[placeholder.range]
            case .integer, .double, .string:
                let position = placeholder.position ?? next
                if placeholder.position == nil { next += 1 }
                let modifiers = placeholder.modifiers.filter { !"hlqLzjt".contains($0) }
                result += "%\(position)$\(modifiers)\(androidConversion(placeholder.conversion))"
            }
        }
        result += text[cursor...]
        return result
    }

    private static func androidConversion(_ conversion: Character) -> Character {
        switch conversion {
        case "@", "S": "s"
        case "i", "u", "D", "U": "d"
        case "C": "c"
        default: conversion
        }
    }

    /// XML and Android resource escaping of a value.
    public static func escape(_ text: String) -> String {
        var result = ""
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "@" where offset == 0: result += "\\@"
            case "?" where offset == 0: result += "\\?"
            case " " where offset == 0 || offset == text.unicodeScalars.count - 1: result += "\\u0020"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
