import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `XMLParser` delegate that builds a ``TremaDocument`` and records every rule the file breaks.
final class TremaParserDelegate: NSObject, XMLParserDelegate {
    let file: String
    var violations: [TremaError.Violation] = []
    var fatal: TremaError.Violation?
    var masterLanguage: String?
    var schemaLocation: SchemaLocation?
    var texts: [TremaText] = []
    var sawRoot = false

    private var path: [String] = []
    private var keys: [String: SourceLocation] = [:]
    private var current: TremaText?
    private var sawContext = false
    private var languages: [String: SourceLocation] = [:]
    private var valueHeader: (language: String, status: TremaStatus, location: SourceLocation)?
    private var buffer = ""
    private var collecting = false

    init(file: String) {
        self.file = file
    }

    private func location(_ parser: XMLParser) -> SourceLocation {
        SourceLocation(file: file, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
    }

    private func report(_ parser: XMLParser, _ message: String) {
        violations.append(TremaError.Violation(location: location(parser), message: message))
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let parent = path.last
        path.append(name)
        switch (parent, name) {
        case (nil, "trema"):
            sawRoot = true
            startRoot(parser, attributes)
        case (nil, _):
            report(parser, "the root element must be <trema>, not <\(name)>")
        case ("trema", "text"):
            startText(parser, attributes)
        case ("text", "context"):
            if sawContext { report(parser, "text '\(current?.key ?? "")' has more than one <context>") }
            if !(current?.values.isEmpty ?? true) || valueHeader != nil {
                report(parser, "<context> must come before the values of text '\(current?.key ?? "")'")
            }
            sawContext = true
            startCollecting()
        case ("text", "value"):
            startValue(parser, attributes)
        default:
            report(parser, "unexpected element <\(name)> inside <\(parent ?? "")>")
        }
    }

    private func startRoot(_ parser: XMLParser, _ attributes: [String: String]) {
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            if name == "masterLang" {
                if Self.isLanguageCode(value) {
                    masterLanguage = value
                } else {
                    report(parser, "masterLang '\(value)' is not a language code")
                }
            } else if SchemaLocation.attributeNames.contains(name) {
                if SchemaLocation.isKnown(value) {
                    schemaLocation = SchemaLocation(attribute: name, url: value)
                } else {
                    report(parser, "unknown schema location '\(value)'; expected trema-1.0.xsd at software.group.nca or netceteragroup/trema-core")
                }
            } else if !name.hasPrefix("xmlns") {
                report(parser, "unexpected attribute '\(name)' on <trema>")
            }
        }
        if attributes["masterLang"] == nil { report(parser, "<trema> needs a masterLang attribute") }
    }

    private func startText(_ parser: XMLParser, _ attributes: [String: String]) {
        let here = location(parser)
        let key = attributes["key"] ?? ""
        if attributes["key"] == nil {
            report(parser, "<text> needs a key attribute")
        } else if key.isEmpty {
            report(parser, "the key of <text> is empty")
        } else if let first = keys[key] {
            report(parser, "duplicate key '\(key)' (first at line \(first.line))")
        } else {
            keys[key] = here
        }
        for name in attributes.keys.sorted() where name != "key" {
            report(parser, "unexpected attribute '\(name)' on <text>")
        }
        current = TremaText(key: key, values: [], location: here)
        sawContext = false
        languages = [:]
    }

    private func startValue(_ parser: XMLParser, _ attributes: [String: String]) {
        let here = location(parser)
        let key = current?.key ?? ""
        if !sawContext { report(parser, "text '\(key)' needs a <context> before its values") }
        let language = attributes["lang"] ?? ""
        if attributes["lang"] == nil {
            report(parser, "a value of text '\(key)' has no lang attribute")
        } else if !Self.isLanguageCode(language) {
            report(parser, "lang '\(language)' of text '\(key)' is not a language code")
        } else if let first = languages[language] {
            report(parser, "text '\(key)' has two values for '\(language)' (first at line \(first.line))")
        } else {
            languages[language] = here
        }
        var status = TremaStatus.initial
        if let text = attributes["status"] {
            if let parsed = TremaStatus(rawValue: text) {
                status = parsed
            } else {
                report(parser, "status '\(text)' of text '\(key)' (\(language)) is not initial, translated, verified or special")
            }
        } else {
            report(parser, "the '\(language)' value of text '\(key)' has no status attribute")
        }
        for name in attributes.keys.sorted() where name != "lang" && name != "status" {
            report(parser, "unexpected attribute '\(name)' on <value>")
        }
        valueHeader = (language, status, here)
        startCollecting()
    }

    private func startCollecting() {
        buffer = ""
        collecting = true
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { _ = path.popLast() }
        guard path.count >= 2 else { return }
        switch (path[path.count - 2], name) {
        case ("text", "context"):
            current?.context = buffer
            collecting = false
        case ("text", "value"):
            if let header = valueHeader {
                current?.values.append(
                    TremaValue(language: header.language, status: header.status, text: buffer, location: header.location))
            }
            valueHeader = nil
            collecting = false
        case ("trema", "text"):
            if var text = current {
                if !sawContext { report(parser, "text '\(text.key)' has no <context>") }
                if text.values.isEmpty { report(parser, "text '\(text.key)' has no value") }
                text.values = text.values.filter { !$0.language.isEmpty }
                texts.append(text)
            }
            current = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if collecting && path.count >= 1 && (path.last == "context" || path.last == "value") {
            buffer += string
        } else if !string.allSatisfy(\.isWhitespace) {
            report(parser, "unexpected text '\(string.prefix(40))' inside <\(path.last ?? "")>")
        }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
        guard fatal == nil else { return }
        fatal = TremaError.Violation(location: location(parser), message: "not well-formed XML (\(error.localizedDescription))")
    }

    /// `de`, `en-US`, `pt_BR`, `zh-Hans`, `jp`: letters, digits, `-` and `_`, starting with a letter.
    static func isLanguageCode(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }
}
