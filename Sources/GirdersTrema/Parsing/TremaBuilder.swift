/// Builds a ``TremaDocument`` from the scanner's events and records every rule of trema-1.0.xsd the file breaks.
struct TremaBuilder: XMLScanner.Handler {
    let file: String
    var violations: [TremaError.Violation] = []
    var masterLanguage: String?
    var schemaLocation: SchemaLocation?
    var texts: [TremaText] = []
    var sawRoot = false

    private var path: [String] = []
    /// Every key read, where its text starts.
    private(set) var keys: [String: SourceLocation] = [:]
    /// The text being read, made into a ``TremaText`` when it ends.
    private var current: (key: String, context: String, values: [TremaValue], location: SourceLocation)?
    private var sawContext = false
    /// The current text's languages so far: looked through while few (a text has a handful; hashing each cost more
    /// than the look), in `manyLanguages` once there are more, so a text with thousands of values stays linear.
    private var languages: [(language: String, location: SourceLocation)] = []
    private var manyLanguages: [String: SourceLocation] = [:]
    private var valueHeader: (language: String, status: TremaStatus, location: SourceLocation)?
    private var buffer = ""
    private var collecting = false

    private var here = SourceLocation(file: "", line: 1, column: 1)

    init(file: String) {
        self.file = file
    }

    /// A builder for a part of a file that starts inside the `<trema>` root, between two texts.
    init(file: String, insideRoot: Void) {
        self.file = file
        path = ["trema"]
        sawRoot = true
    }

    private mutating func report(_ message: String, at location: SourceLocation? = nil) {
        violations.append(TremaError.Violation(location: location ?? here, message: message))
    }

    mutating func startElement(_ name: String, attributes list: [(name: String, value: String)], line: Int, column: Int)
    {
        here = SourceLocation(file: file, line: line, column: column)
        let attributes = Attributes(list: list)
        let parent = path.last
        path.append(name)
        switch (parent, name) {
        case (nil, "trema"):
            sawRoot = true
            startRoot(attributes)
        case (nil, _):
            report("the root element must be <trema>, not <\(name)>")
        case ("trema", "text"):
            startText(attributes)
        case ("text", "context"):
            if sawContext { report("text '\(current?.key ?? "")' has more than one <context>") }
            if !(current?.values.isEmpty ?? true) || valueHeader != nil {
                report("<context> must come before the values of text '\(current?.key ?? "")'")
            }
            sawContext = true
            startCollecting()
        case ("text", "value"):
            startValue(attributes)
        default:
            report("unexpected element <\(name)> inside <\(parent ?? "")>")
        }
    }

    private mutating func startRoot(_ attributes: Attributes) {
        for (name, value) in attributes.list {
            if name == "masterLang" {
                if Self.isLanguageCode(value) {
                    masterLanguage = value
                } else {
                    report(
                        "masterLang '\(value.prefix(40))' is not a language code (at most \(Self.maximumLanguageCodeLength) letters, digits, '-' or '_')"
                    )
                }
            } else if SchemaLocation.attributeNames.contains(name) {
                if SchemaLocation.isKnown(value) {
                    schemaLocation = SchemaLocation(attribute: name, url: value)
                } else {
                    report(
                        "unknown schema location '\(value)'; expected trema-1.0.xsd at software.group.nca or netceteragroup/trema-core"
                    )
                }
            } else if !name.hasPrefix("xmlns") {
                report("unexpected attribute '\(name)' on <trema>")
            }
        }
        if attributes["masterLang"] == nil { report("<trema> needs a masterLang attribute") }
    }

    private mutating func startText(_ attributes: Attributes) {
        let key = attributes["key"] ?? ""
        if attributes["key"] == nil {
            report("<text> needs a key attribute")
        } else if key.isEmpty {
            report("the key of <text> is empty")
        } else if let first = keys[key] {
            report("duplicate key '\(key)' (first at line \(first.line))")
        } else {
            keys[key] = here
        }
        for (name, _) in attributes.list where name != "key" {
            report("unexpected attribute '\(name)' on <text>")
        }
        current = (key, "", [], here)
        sawContext = false
        languages.removeAll(keepingCapacity: true)
        manyLanguages.removeAll()
    }

    private mutating func startValue(_ attributes: Attributes) {
        let key = current?.key ?? ""
        if !sawContext { report("text '\(key)' needs a <context> before its values") }
        let language = attributes["lang"] ?? ""
        if attributes["lang"] == nil {
            report("a value of text '\(key)' has no lang attribute")
        } else if !Self.isLanguageCode(language) {
            report(
                "lang '\(language.prefix(40))' of text '\(key)' is not a language code (at most \(Self.maximumLanguageCodeLength) letters, digits, '-' or '_')"
            )
        } else if let first = firstValue(in: language) {
            report("text '\(key)' has two values for '\(language)' (first at line \(first.line))")
        } else {
            addLanguage(language)
        }
        var status = TremaStatus.initial
        if let text = attributes["status"] {
            if let parsed = TremaStatus(rawValue: text) {
                status = parsed
            } else {
                report(
                    "status '\(text)' of text '\(key)' (\(language)) is not initial, translated, verified or special")
            }
        } else {
            report("the '\(language)' value of text '\(key)' has no status attribute")
        }
        for (name, _) in attributes.list where name != "lang" && name != "status" {
            report("unexpected attribute '\(name)' on <value>")
        }
        valueHeader = (language, status, here)
        startCollecting()
    }

    /// Where the current text's value in `language` starts, if it has one already.
    private func firstValue(in language: String) -> SourceLocation? {
        guard manyLanguages.isEmpty else { return manyLanguages[language] }
        return languages.first { $0.language == language }?.location
    }

    private mutating func addLanguage(_ language: String) {
        guard manyLanguages.isEmpty, languages.count < 16 else {
            if manyLanguages.isEmpty { manyLanguages = Dictionary(languages, uniquingKeysWith: { first, _ in first }) }
            manyLanguages[language] = here
            return
        }
        languages.append((language, here))
    }

    private mutating func startCollecting() {
        buffer = ""
        collecting = true
    }

    mutating func endElement(_ name: String, line: Int, column: Int) {
        here = SourceLocation(file: file, line: line, column: column)
        defer { _ = path.popLast() }
        guard path.count >= 2 else { return }
        switch (path[path.count - 2], name) {
        case ("text", "context"):
            current?.context = buffer
            collecting = false
        case ("text", "value"):
            if let header = valueHeader {
                current?.values.append(
                    TremaValue(
                        language: header.language, status: header.status, text: buffer, location: header.location))
            }
            valueHeader = nil
            collecting = false
        case ("trema", "text"):
            if let (key, context, values, location) = current {
                if !sawContext { report("text '\(key)' has no <context>") }
                if values.isEmpty { report("text '\(key)' has no value") }
                let kept = values.contains { $0.language.isEmpty } ? values.filter { !$0.language.isEmpty } : values
                texts.append(TremaText(key: key, context: context, values: kept, location: location))
            }
            current = nil
        default:
            break
        }
    }

    mutating func characters(_ string: String, line: Int, column: Int) {
        if collecting && (path.last == "context" || path.last == "value") {
            buffer += string
        } else if string.utf8.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) {
            let trimmed = string.drop { $0.isWhitespace }
            report(
                "unexpected text '\(trimmed.prefix(40))' inside <\(path.last ?? "")>",
                at: SourceLocation(file: file, line: line, column: column))
        }
    }

    /// The longest language code accepted (BCP 47 asks implementations to support at least 35 characters).
    static let maximumLanguageCodeLength = 35

    /// `de`, `en-US`, `pt_BR`, `zh-Hans`, `jp`: letters, digits, `-` and `_`, starting with a letter, at most
    /// ``maximumLanguageCodeLength`` characters. Language codes become folder names, so nothing else passes.
    static func isLanguageCode(_ text: String) -> Bool {
        guard let first = text.utf8.first, isLetter(first), text.utf8.count <= maximumLanguageCodeLength else {
            return false
        }
        return text.utf8.allSatisfy {
            isLetter($0) || (48...57).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte)
    }
}

/// An element's attributes in document order, looked up by name (elements have two or three).
struct Attributes {
    let list: [(name: String, value: String)]

    subscript(name: String) -> String? {
        list.first { $0.name == name }?.value
    }
}
