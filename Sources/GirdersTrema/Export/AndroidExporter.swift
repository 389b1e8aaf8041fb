import Foundation
import GirdersSupport

/// Android string resources: `res/values[-lang]/strings.xml`, the default language (the master language unless
/// chosen otherwise) in `values/`.
///
/// Keys become valid resource names (`key.with.dots` is `key_with_dots`), values are XML- and Android-escaped
/// (`'`, `"`, `\`, a leading `@` or `?`, newlines, tabs), and printf placeholders become positional Android ones:
/// `%@` is `%1$s`, `%i` and `%u` are `%d`; `%%` and `%p` stay as they are.
public enum AndroidExporter {
    /// Bytes of markup an exported text takes in one language, besides its own (see `exportCapacity`).
    static let markupPerText = 64

    /// One `strings.xml` per language.
    /// - Throws: ``TremaError/exportFailed(reason:)`` with `file:line:column` when two keys map to the same
    ///   resource name or two languages to the same `values-…` folder.
    public static func export(
        _ document: TremaDocument, options: ExportOptions = ExportOptions()
    ) throws(TremaError)
        -> [ExportedFile]
    {
        var owners: [String: String] = [:]
        let entries = document.entries(options)
        var names: [String] = []  // by entry
        names.reserveCapacity(entries.count)
        for entry in entries {
            let (key, location) =
                switch entry {
                case .text(let index): (document.texts[index].key, document.texts[index].location)
                case .plural(let plural): (plural.key, plural.location)
                }
            let name = resourceName(key)
            names.append(name)
            if let other = owners[name] {
                throw .exportFailed(
                    reason:
                        "\(location.map { "\($0): " } ?? "")the keys '\(other)' and '\(key)' both become the Android name '\(name)'"
                )
            }
            owners[name] = key
        }
        let defaultLanguage = options.androidDefaultLanguage ?? document.masterLanguage
        var folders: [String: String] = [:]
        for language in document.exportLanguages(options) {
            let target = folder(for: language, default: defaultLanguage)
            if let other = folders[target] {
                let location = document.firstLocation(of: language).map { "\($0): " } ?? ""
                throw .exportFailed(
                    reason:
                        "\(location)the languages '\(other)' and '\(language)' both become the Android folder '\(target)'"
                )
            }
            folders[target] = language
        }
        let capacity = document.exportCapacity(languages: 1, perText: markupPerText)
        return document.exportLanguages(options).map { language in
            var out = ByteWriter(capacity: capacity)
            let rules = PluralRules(language: language)
            out.write("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n")
            for (entry, name) in zip(entries, names) {
                switch entry {
                case .text(let index):
                    let text = document.texts[index]
                    guard let value = document.chosenValue(of: text, for: language, options) else { continue }
                    writeComment(text.context, options, to: &out)
                    out.write("  <string name=\"")
                    out.write(name)
                    out.write("\">")
                    writePositionalEscaped(value.meaning(readingEscapes: options.readsEscapes), to: &out)
                    out.write("</string>\n")
                case .plural(let plural):
                    let forms = document.chosenForms(of: plural, for: language, rules: rules, options)
                    guard !forms.isEmpty else { continue }
                    writeComment(plural.context, options, to: &out)
                    out.write("  <plurals name=\"")
                    out.write(name)
                    out.write("\">\n")
                    for form in forms {
                        out.write("    <item quantity=\"\(form.category.rawValue)\">")
                        writePositionalEscaped(form.meaning, to: &out)
                        out.write("</item>\n")
                    }
                    out.write("  </plurals>\n")
                }
            }
            out.write("</resources>\n")
            return ExportedFile(
                path: "res/\(folder(for: language, default: defaultLanguage))/strings.xml", data: out.takeData())
        }
    }

    private static func writeComment(_ context: String, _ options: ExportOptions, to out: inout ByteWriter) {
        guard options.includesComments && !context.isEmpty else { return }
        out.write("  <!-- ")
        out.write(comment(context))
        out.write(" -->\n")
    }

    /// `values` for the default language, `values-fr`, and `values-pt-rBR` for `pt-BR`, `pt_BR`, `pt-br` or
    /// `pt-rBR`. Different spellings of one language map to one folder, which ``export(_:options:)`` reports.
    static func folder(for language: String, default defaultLanguage: String) -> String {
        if language == defaultLanguage { return "values" }
        let parts = language.split(whereSeparator: { $0 == "-" || $0 == "_" })
        if parts.count == 2, parts[1].count == 3, parts[1].first == "r" {
            return "values-\(parts[0].lowercased())-r\(parts[1].dropFirst().uppercased())"
        }
        guard parts.count == 2, parts[1].count == 2 else { return "values-\(language)" }
        return "values-\(parts[0].lowercased())-r\(parts[1].uppercased())"
    }

    /// A valid Android resource name for `key`: characters other than letters, digits and `_` become `_`, a
    /// leading digit gets a `_` in front, and Java keywords get one behind.
    public static func resourceName(_ key: String) -> String {
        // By UTF-8 bytes: a scalar's lead byte becomes one `_`, its continuation bytes (80-BF) nothing.
        var name: [UInt8] = []
        name.reserveCapacity(key.utf8.count + 2)
        func append(_ bytes: some Sequence<UInt8>) {
            for byte in bytes where byte < 0x80 || byte >= 0xC0 {
                let valid =
                    (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 95
                name.append(valid ? byte : UInt8(ascii: "_"))
            }
        }
        // Over contiguous storage (every native string): the UTF-8 view's iterator costs several times as much.
        if key.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil { append(key.utf8) }
        if name.first.map({ (48...57).contains($0) }) ?? true { name.insert(UInt8(ascii: "_"), at: 0) }
        let result = String(decoding: name, as: UTF8.self)
        // No Java keyword is longer than `longestJavaKeyword` bytes: a longer name is not hashed to find out.
        return name.count <= longestJavaKeyword && javaKeywords.contains(result) ? result + "_" : result
    }

    private static let longestJavaKeyword = javaKeywords.map(\.utf8.count).max() ?? 0

    static let javaKeywords: Set<String> = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
        "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
        "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
        "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null",
    ]

    /// Printf placeholders made positional for Android.
    public static func positional(_ text: String) -> String {
        guard text.containsUTF8(UInt8(ascii: "%")) else { return text }
        var native = text
        native.makeContiguousUTF8()  // a no-op for every string but a bridged one
        guard let rewritten = native.utf8.withContiguousStorageIfAvailable(positional), let bytes = rewritten else {
            return text
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``positional(_:)`` escaped for a resource (``writeEscaped(_:to:)``), without a string in between.
    static func writePositionalEscaped(_ text: String, to out: inout ByteWriter) {
        var native = text
        native.makeContiguousUTF8()  // a no-op for every string but a bridged one
        _ = native.utf8.withContiguousStorageIfAvailable { bytes in
            // `positional` finds no placeholder without a `%` (it looks for one with memchr) and gives nil.
            guard let rewritten = positional(bytes) else {
                return writeEscaped(bytes, to: &out)
            }
            rewritten.withUnsafeBufferPointer { writeEscaped($0, to: &out) }
        }
    }

    /// The bytes of ``positional(_:)`` by offsets into contiguous UTF-8 (a slice of a String's UTF-8 view is
    /// copied byte by byte), or `nil` when there is no placeholder.
    private static func positional(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var found = false
        var cursor = 0
        var next = 1
        var start = 0
        while let placeholder = PrintfPlaceholder.next(in: bytes, from: start) {
            start = placeholder.end
            if !found { out.reserveCapacity(bytes.count + 8) }
            found = true
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor..<placeholder.start]))
            cursor = placeholder.end
            switch PrintfPlaceholder.kind(of: placeholder.conversion) {
            case .percent, .pointer:
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[placeholder.start..<placeholder.end]))
            case .integer, .double, .string:
                let position = placeholder.position ?? next
                if placeholder.position == nil { next += 1 }
                out.append(UInt8(ascii: "%"))
                // One digit, the common case, without a String in between.
                if position < 10 {
                    out.append(UInt8(ascii: "0") + UInt8(position))
                } else {
                    out += String(position).utf8
                }
                out.append(UInt8(ascii: "$"))
                for byte in bytes[placeholder.modifiers] where !lengthModifiers.contains(byte) { out.append(byte) }
                out.append(androidConversion(placeholder.conversion))
            }
        }
        guard found else { return nil }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor...]))
        return out
    }

    private static let lengthModifiers = ByteSet("hlqLzjt")

    private static func androidConversion(_ conversion: UInt8) -> UInt8 {
        switch conversion {
        case UInt8(ascii: "@"), UInt8(ascii: "S"): UInt8(ascii: "s")
        case UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "D"), UInt8(ascii: "U"): UInt8(ascii: "d")
        case UInt8(ascii: "C"): UInt8(ascii: "c")
        default: conversion
        }
    }

    /// XML and Android resource escaping of a value.
    public static func escape(_ text: String) -> String {
        var out = ByteWriter(capacity: text.utf8.count + 8)
        writeEscaped(text, to: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Writes an escaped value: the table for every byte, plus what aapt2 would otherwise change: a leading `@` or
    /// `?` (read as a reference), leading or trailing spaces (trimmed) and runs of spaces inside (folded to one),
    /// each written as `\u0020`; U+FFFE and U+FFFF, which XML cannot carry, as `\ufffe` and `\uffff`.
    static func writeEscaped(_ text: String, to out: inout ByteWriter) {
        var text = text
        text.makeContiguousUTF8()  // a no-op for every string but a bridged one
        _ = text.utf8.withContiguousStorageIfAvailable { writeEscaped($0, to: &out) }
    }

    /// ``writeEscaped(_:to:)`` of valid UTF-8, by byte offsets.
    static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) {
        guard let first = bytes.first else { return }
        var start = 0
        var end = bytes.count
        if first == UInt8(ascii: " ") {
            out.write("\\u0020")
            start = 1
        } else if first == UInt8(ascii: "@") || first == UInt8(ascii: "?") {
            out.write(UInt8(ascii: "\\"))
            out.write(first)
            start = 1
        }
        let trailingSpace = end > start && bytes[end - 1] == UInt8(ascii: " ")
        if trailingSpace { end -= 1 }
        let body = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if first == UInt8(ascii: " ") || needsMoreThanTheTable(body) {
            // Whole scalars from here: `start` and `end` are after and before a space, `@` or `?`.
            writeBody(String(decoding: body, as: UTF8.self), afterSpace: first == UInt8(ascii: " "), to: &out)
        } else {
            out.write(body, escaping: table)
        }
        if trailingSpace { out.write("\\u0020") }
    }

    /// The table's escaping, with a space that follows a space and the two non-characters written as `\u` escapes.
    private static func writeBody(_ text: String, afterSpace: Bool, to out: inout ByteWriter) {
        var segment = ""
        var previousWasSpace = afterSpace
        for scalar in text.unicodeScalars {
            let escape: String? =
                switch scalar.value {
                case 0x20 where previousWasSpace: "\\u0020"
                case 0xFFFE: "\\ufffe"
                case 0xFFFF: "\\uffff"
                default: nil
                }
            previousWasSpace = scalar == " "
            guard let escape else {
                segment.unicodeScalars.append(scalar)
                continue
            }
            out.write(segment, escaping: table)
            segment = ""
            out.write(escape)
        }
        out.write(segment, escaping: table)
    }

    /// Whether `bytes` hold two spaces in a row or an 0xEF (which starts U+FFFE and U+FFFF); looked for with
    /// `memchr`, a word or more at a time, since most values have neither.
    private static func needsMoreThanTheTable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.firstOffset(of: 0xEF, from: 0) != nil { return true }
        var from = 0
        while let space = bytes.firstOffset(of: UInt8(ascii: " "), from: from) {
            if space + 1 < bytes.count && bytes[space + 1] == UInt8(ascii: " ") { return true }
            from = space + 2
        }
        return false
    }

    private static let table = EscapeTable(
        [
            UInt8(ascii: "&"): "&amp;", UInt8(ascii: "<"): "&lt;", UInt8(ascii: ">"): "&gt;",
            UInt8(ascii: "\\"): "\\\\", UInt8(ascii: "'"): "\\'", UInt8(ascii: "\""): "\\\"", 0x0A: "\\n", 0x09: "\\t",
        ], controlPrefix: "\\u", uppercaseHex: false)

    /// `text` safe inside an XML comment, which cannot contain `--` or end with `-`, nor a character XML 1.0
    /// cannot carry (those are written as `\uXXXX`).
    static func comment(_ text: String) -> String {
        var result = text
        if result.unicodeScalars.contains(where: TremaDocument.isForbidden) {
            var cleaned = ""
            for scalar in result.unicodeScalars {
                if TremaDocument.isForbidden(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    cleaned += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    cleaned.unicodeScalars.append(scalar)
                }
            }
            result = cleaned
        }
        guard result.utf8.contains(UInt8(ascii: "-")) else { return result }
        // By scalars: `-` followed by a combining mark is one Character, but still a hyphen to an XML reader.
        while result.containsScalars("--") { result = result.replacingScalars("--", with: "- -") }
        return result.unicodeScalars.last == "-" ? result + " " : result
    }
}
