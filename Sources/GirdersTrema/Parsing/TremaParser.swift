public import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension TremaDocument {
    /// Parses a trema file, enforcing every rule of trema-1.0.xsd.
    /// - Throws: ``TremaError/invalidDocument(file:violations:)`` listing every violation with its line and
    ///   column, or ``TremaError/cannotRead(path:reason:)``.
    public init(contentsOf url: URL) throws(TremaError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .cannotRead(path: url.path, reason: error.localizedDescription)
        }
        try self.init(data: data, file: url.path)
    }

    /// Parses trema XML from memory; `file` names it in errors.
    public init(data: Data, file: String = "(data)") throws(TremaError) {
        let start = SourceLocation(file: file, line: 1, column: 1)
        if let problem = XMLDeclaration.encodingProblem(in: data) {
            throw .invalidDocument(file: file, violations: [TremaError.Violation(location: start, message: problem)])
        }
        let handler = TremaParserDelegate(file: file)
        let parser = XMLParser(data: data)
        parser.delegate = handler
        parser.shouldResolveExternalEntities = false
        let wellFormed = parser.parse()
        if !wellFormed, handler.fatal == nil {
            handler.fatal = TremaError.Violation(
                location: SourceLocation(file: file, line: parser.lineNumber, column: parser.columnNumber),
                message: "not well-formed XML (\(parser.parserError.map { "\($0)" } ?? "unknown error"))")
        }
        var violations = handler.violations
        if let fatal = handler.fatal { violations.append(fatal) }
        if !handler.sawRoot && violations.isEmpty {
            violations.append(TremaError.Violation(location: start, message: "no <trema> root element"))
        }
        guard violations.isEmpty, let master = handler.masterLanguage else {
            throw .invalidDocument(file: file, violations: violations)
        }
        self.init(masterLanguage: master, texts: handler.texts, schemaLocation: handler.schemaLocation)
    }
}

/// Reads the XML declaration's encoding: trema files are UTF-8 or ISO-8859-1.
enum XMLDeclaration {
    static func encodingProblem(in data: Data) -> String? {
        let head = data.prefix(2)
        if head == Data([0xFE, 0xFF]) || head == Data([0xFF, 0xFE]) {
            return "the file is UTF-16; trema files are UTF-8 or ISO-8859-1"
        }
        let prefix = String(decoding: data.prefix(200), as: UTF8.self)
        guard prefix.hasPrefix("<?xml") || prefix.hasPrefix("\u{FEFF}<?xml"),
            let end = prefix.range(of: "?>")
        else { return nil }
        let declaration = prefix[..<end.lowerBound]
        guard let attribute = declaration.range(of: "encoding=") else { return nil }
        let rest = declaration[attribute.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let name = rest.dropFirst().prefix { $0 != quote }.uppercased()
        let accepted = ["UTF-8", "UTF8", "ISO-8859-1", "ISO8859-1", "LATIN1"]
        return accepted.contains(name) ? nil : "unsupported encoding \(name); trema files are UTF-8 or ISO-8859-1"
    }
}
