public import Foundation
import GirdersSupport

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

    /// Parses trema XML from memory; `file` names it in errors. The file is UTF-8 or ISO-8859-1, as its XML
    /// declaration says.
    public init(data: Data, file: String = "(data)") throws(TremaError) {
        func failure(_ line: Int, _ column: Int, _ message: String) -> TremaError {
            .invalidDocument(
                file: file,
                violations: [
                    TremaError.Violation(
                        location: SourceLocation(file: file, line: line, column: column), message: message)
                ])
        }
        let utf8: [UInt8]
        switch XMLDeclaration.encoding(of: data) {
        case .unsupported(let problem):
            throw failure(1, 1, problem)
        case .latin1:
            var bytes: [UInt8] = []
            bytes.reserveCapacity(data.count + data.count / 8)
            for byte in data {
                if byte < 0x80 {
                    bytes.append(byte)
                } else {
                    bytes.append(0xC0 | (byte >> 6))
                    bytes.append(0x80 | (byte & 0x3F))
                }
            }
            utf8 = bytes
        case .utf8:
            utf8 = Array(data)
            if ValidatedText.utf8(utf8) == nil, let (line, column) = XMLDeclaration.firstInvalidUTF8(in: data) {
                throw failure(line, column, "invalid UTF-8; the XML declaration says UTF-8")
            }
        }
        try self.init(utf8: utf8, file: file, parts: TremaPartedParse.partCount(forBytes: utf8.count))
    }

    /// Parses valid UTF-8, in `parts` parts at once when the file allows it (see ``TremaPartedParse``).
    init(utf8: [UInt8], file: String, parts: Int) throws(TremaError) {
        if parts > 1, let builder = TremaPartedParse.read(utf8, file: file, parts: parts),
            let master = builder.masterLanguage
        {
            self.init(masterLanguage: master, texts: builder.texts, schemaLocation: builder.schemaLocation)
            return
        }
        var builder = TremaBuilder(file: file)
        var scanner = XMLScanner(utf8: utf8)
        do {
            try scanner.scan(into: &builder)
        } catch {
            builder.violations.append(
                TremaError.Violation(
                    location: SourceLocation(file: file, line: error.line, column: error.column),
                    message: "not well-formed XML: \(error.message)"))
        }
        var violations = builder.violations
        if !builder.sawRoot && violations.isEmpty {
            violations.append(
                TremaError.Violation(
                    location: SourceLocation(file: file, line: 1, column: 1), message: "no <trema> root element"))
        }
        guard violations.isEmpty, let master = builder.masterLanguage else {
            throw .invalidDocument(file: file, violations: violations)
        }
        self.init(masterLanguage: master, texts: builder.texts, schemaLocation: builder.schemaLocation)
    }
}

/// The XML declaration's encoding: trema files are UTF-8 or ISO-8859-1.
enum XMLDeclaration {
    /// What the declaration says.
    enum Encoding: Equatable {
        case utf8
        case latin1
        case unsupported(String)
    }

    static func encoding(of data: Data) -> Encoding {
        let head = data.prefix(2)
        if head == Data([0xFE, 0xFF]) || head == Data([0xFF, 0xFE]) {
            return .unsupported("the file is UTF-16; trema files are UTF-8 or ISO-8859-1")
        }
        let prefix = String(decoding: data.prefix(200), as: UTF8.self)
        guard prefix.hasPrefix("<?xml") || prefix.hasPrefix("\u{FEFF}<?xml"), let end = prefix.range(of: "?>") else {
            return .utf8
        }
        let declaration = prefix[..<end.lowerBound]
        guard let attribute = declaration.range(of: "encoding=") else { return .utf8 }
        let rest = declaration[attribute.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return .utf8 }
        let name = rest.dropFirst().prefix { $0 != quote }.uppercased()
        switch name {
        case "UTF-8", "UTF8": return .utf8
        case "ISO-8859-1", "ISO8859-1", "LATIN1", "ISO_8859-1": return .latin1
        default: return .unsupported("unsupported encoding \(name); trema files are UTF-8 or ISO-8859-1")
        }
    }

    /// The line and column of the first byte that is not valid UTF-8, or `nil`; a byte-by-byte walk, for files
    /// already known to be invalid.
    static func firstInvalidUTF8(in data: Data) -> (Int, Int)? {
        var line = 1
        var lineStart = 0
        var offset = 0
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                offset += scalar.count
                if scalar.first == 0x0A {
                    line += 1
                    lineStart = offset
                }
            case .error:
                return (line, offset - lineStart + 1)
            case .emptyInput:
                return nil
            }
        }
    }
}
