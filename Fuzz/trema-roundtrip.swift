import Foundation

@testable import GirdersTrema

/// libFuzzer entry: any bytes as a trema document built in code (keys, languages, contexts, values and statuses
/// drawn from the bytes, with control characters, XML's and every format's special characters, white-space runs,
/// noncharacters and placeholders among them), then every exporter's property: `xmlData()` parses back to the same
/// document or refuses with a `TremaError`; each `.strings` file reads back through `StringsFileReader` to the same
/// meanings; the `.xcstrings` file is JSON with the same values and comments; each Android `strings.xml` is
/// well-formed and reads back, through aapt2's escapes and white-space rules, to the same text (or the export
/// refuses with a `TremaError`). Never a silently different file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTremaRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = FuzzBytes(Array(UnsafeBufferPointer(start: data, count: size)))
    let document = bytes.document()
    checkTremaXML(document)
    checkStrings(document)
    checkStringCatalog(document)
    checkAndroid(document)
    return 0
}

/// Draws values from the fuzzer's bytes, 0 once they run out.
struct FuzzBytes {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    /// Characters that each format treats specially, or that XML or a parser refuses.
    static let palette: [Unicode.Scalar] = [
        "a", "Z", "0", " ", " ", "\t", "\n", "\r", "\\", "\"", "'", "&", "<", ">", "%", "@", "?", "*", "/", "-", ".",
        "n", "u", "U", "\u{0}", "\u{1}", "\u{1B}", "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{FEFF}", "\u{FFFE}",
        "\u{FFFF}", "é", "\u{1F600}", "$", "1", "i", "s",
    ]

    mutating func text(maximum: Int) -> String {
        let length = Int(next()) % (maximum + 1)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length { scalars.append(Self.palette[Int(next()) % Self.palette.count]) }
        return String(scalars)
    }

    mutating func document() -> TremaDocument {
        let languages = ["en", "de", "fr-CH", "pt_BR", "zh-Hans"]
        let master = languages[Int(next()) % 2]
        var texts: [TremaText] = []
        var keys = Set<String>()
        for _ in 0..<(1 + Int(next()) % 4) {
            var key = text(maximum: 6)
            if next() % 3 == 0 {  // a plural form: few bases, so forms of one plural meet
                key = ["p", "q.r"][Int(next()) % 2] + "#" + PluralCategory.allCases[Int(next()) % 6].rawValue
            }
            if key.isEmpty || keys.contains(key) { key += "k\(keys.count)" }
            keys.insert(key)
            var values: [TremaValue] = []
            for language in languages where next() % 3 != 0 {
                let status = [TremaStatus.initial, .translated, .verified, .special][Int(next()) % 4]
                values.append(TremaValue(language: language, status: status, text: text(maximum: 10)))
            }
            texts.append(TremaText(key: key, context: text(maximum: 6), values: values))
        }
        return TremaDocument(masterLanguage: master, texts: texts)
    }
}

func checkTremaXML(_ document: TremaDocument) {
    let xml: Data
    do {
        xml = try document.xmlData()
    } catch {
        if "\(error)".isEmpty { fatalError("xmlData refused without a reason") }
        return
    }
    let parsed: TremaDocument
    do {
        parsed = try TremaDocument(data: xml)
    } catch {
        fatalError("xmlData wrote a file the parser refuses: \(error)\n\(String(decoding: xml, as: UTF8.self))")
    }
    func shape(_ document: TremaDocument) -> [String] {
        [document.masterLanguage]
            + document.texts.flatMap { text in
                [text.key, text.context] + text.values.map { "\($0.language)|\($0.status)|\($0.text)" }
            }
    }
    if shape(parsed) != shape(document) {
        fatalError("xmlData did not round-trip: \(shape(document)) became \(shape(parsed))")
    }
}

/// The meanings an export of `language` holds, by key; a plural's forms as `key#category`.
func meanings(_ document: TremaDocument, _ language: String) -> [String: String] {
    var expected: [String: String] = [:]
    document.forEachMessage(for: language, ExportOptions()) { message in
        switch message {
        case .text(let text, _, let meaning): expected[text.key] = meaning
        case .plural(let plural, let forms):
            for form in forms { expected[plural.key + "#" + form.category.rawValue] = form.meaning }
        }
    }
    return expected
}

/// Whether any of the document's texts holds a character XML 1.0 cannot carry (a property list refuses it).
func holdsForbidden(_ document: TremaDocument) -> Bool {
    document.texts.contains {
        $0.values.contains { $0.meaning().unicodeScalars.contains(where: TremaDocument.isForbidden) }
    }
}

func checkStrings(_ document: TremaDocument) {
    for file in StringsExporter.export(document) {
        let language = String(file.path.prefix { $0 != "." })
        if file.path.hasSuffix(".stringsdict") {
            checkStringsDict(file, document, language)
            continue
        }
        let read: [(key: String, value: String)]
        do {
            read = try StringsFileReader.read(file.data)
        } catch {
            fatalError("\(file.path) does not read back: \(error)\n\(String(decoding: file.data, as: UTF8.self))")
        }
        let table = StringsFileReader.table(read)
        if table != meanings(document, language) {
            fatalError("\(file.path) read back as \(table), not \(meanings(document, language))")
        }
    }
}

/// A `.stringsdict` reads back to the language's chosen forms, numbered, or is refused by the property list reader
/// only when a form holds a character XML cannot carry.
func checkStringsDict(_ file: ExportedFile, _ document: TremaDocument, _ language: String) {
    guard let plist = (try? PropertyListSerialization.propertyList(from: file.data, format: nil)) as? [String: Any]
    else {
        if holdsForbidden(document) { return }
        fatalError("\(file.path) is not a property list:\n\(String(decoding: file.data, as: UTF8.self))")
    }
    document.forEachMessage(for: language, ExportOptions()) { message in
        guard case .plural(let plural, let forms) = message else { return }
        let entry = plist[plural.key] as? [String: Any]
        let variable = entry?["count"] as? [String: String]
        guard (entry?["NSStringLocalizedFormatKey"] as? String)?.hasSuffix("#@count@") == true, let variable else {
            fatalError("\(file.path) lost the plural \(plural.key.debugDescription)")
        }
        // Foundation's property list reader drops a U+FEFF that starts a string, written raw or as `&#xFEFF;`:
        // lint warns of such a form (see PluralLinter); the rest must come back.
        for form in forms
        where variable[form.category.rawValue] != StringsDictExporter.numbered(form.meaning)
            && "\u{FEFF}" + (variable[form.category.rawValue] ?? "") != StringsDictExporter.numbered(form.meaning)
        {
            fatalError(
                "\(plural.key.debugDescription) \(form.category) became \(String(describing: variable[form.category.rawValue]).debugDescription), not \(StringsDictExporter.numbered(form.meaning).debugDescription)"
                    + "\n" + String(decoding: file.data, as: UTF8.self))
        }
    }
}

func checkStringCatalog(_ document: TremaDocument) {
    let files: [ExportedFile]
    do {
        files = try StringCatalogExporter.export(document)
    } catch {
        return  // a key that is both a text and a plural: refused, naming it
    }
    for file in files {
        guard let catalog = (try? JSONSerialization.jsonObject(with: file.data)) as? [String: Any],
            let strings = catalog["strings"] as? [String: [String: Any]]
        else { fatalError("\(file.path) is not the catalog JSON:\n\(String(decoding: file.data, as: UTF8.self))") }
        for entry in document.entries {
            let (key, context): (String, String) =
                switch entry {
                case .text(let index): (document.texts[index].key, document.texts[index].context)
                case .plural(let plural): (plural.key, plural.context)
                }
            guard let written = strings[key] else { fatalError("\(file.path) lost the key \(key.debugDescription)") }
            if (written["comment"] as? String ?? "") != context {
                fatalError("the comment of \(key.debugDescription) became \(String(describing: written["comment"]))")
            }
            let localizations = written["localizations"] as? [String: [String: Any]] ?? [:]
            for language in document.languages {
                let expected = meanings(document, language)
                let localization = localizations[language]
                switch entry {
                case .text:
                    let value = (localization?["stringUnit"] as? [String: String])?["value"]
                    if value != expected[key] {
                        fatalError(
                            "\(key.debugDescription) in \(language) became \(String(describing: value))\n"
                                + String(decoding: file.data, as: UTF8.self))
                    }
                case .plural:
                    let plural = (localization?["variations"] as? [String: Any])?["plural"] as? [String: [String: Any]]
                    var read: [String: String] = [:]
                    for (category, unit) in plural ?? [:] {
                        read[key + "#" + category] = (unit["stringUnit"] as? [String: String])?["value"]
                    }
                    if read
                        != expected.filter({
                            $0.key.hasPrefix(key + "#") && $0.key.dropFirst(key.count + 1).allSatisfy { $0.isLetter }
                        })
                    {
                        fatalError("the plural \(key.debugDescription) in \(language) became \(read)")
                    }
                }
            }
        }
    }
}

func checkAndroid(_ document: TremaDocument) {
    let files: [ExportedFile]
    do {
        files = try AndroidExporter.export(document)
    } catch {
        return  // two keys with one resource name: refused, naming both
    }
    let defaultLanguage = document.masterLanguage
    for language in document.languages {
        let path = "res/\(AndroidExporter.folder(for: language, default: defaultLanguage))/strings.xml"
        guard let file = files.first(where: { $0.path == path }) else { fatalError("no \(path)") }
        let read: [String: String]
        do {
            read = try AndroidStrings.read(file.data)
        } catch {
            fatalError("\(path) is not well-formed: \(error)\n\(String(decoding: file.data, as: UTF8.self))")
        }
        var expected: [String: String] = [:]
        for (key, meaning) in meanings(document, language) {
            let form = TremaText(key: key, values: []).pluralForm
            let name =
                form.map { AndroidExporter.resourceName($0.key) + "#" + $0.category.rawValue }
                ?? AndroidExporter.resourceName(key)
            expected[name] = AndroidExporter.positional(meaning)
        }
        if read != expected {
            fatalError("\(path) read back as \(read), not \(expected)\n\(String(decoding: file.data, as: UTF8.self))")
        }
    }
}
