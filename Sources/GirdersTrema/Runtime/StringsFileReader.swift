public import Foundation
import GirdersSupport

/// Reads Apple `.strings` tables in every form Xcode ships them, identically on every platform, without
/// Foundation's property-list parser.
///
/// - Text: UTF-8 (with or without a byte-order mark) and UTF-16 with a byte-order mark; `/* */` and `//`
///   comments; quoted and unquoted keys and values; the escapes `\n \t \r \" \\ \' \a \b \f \v`, `\Uxxxx` and
///   `\uxxxx` (UTF-16 units, surrogate pairs combined) and octal `\ooo`; `"key";` alone maps the key to itself.
/// - Property lists: a binary (`bplist00`) or XML property list whose root is a dictionary of strings. Xcode
///   compiles `.strings` into binary property lists inside iOS, tvOS, watchOS and simulator bundles by default
///   (`STRINGS_FILE_OUTPUT_ENCODING = binary`), so this is what `translate(_:)` reads on a device. The entries
///   of a property list come sorted by key (a dictionary has no order).
///
/// Errors name the file and the line (text, XML) or the byte offset (binary).
public enum StringsFileReader {
    /// The entries of the file at `url`, in file order (a repeated key keeps its last value in ``table(_:)``).
    public static func read(contentsOf url: URL) throws(TremaError) -> [(key: String, value: String)] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .cannotRead(path: url.path, reason: error.localizedDescription)
        }
        return try read(data, path: url.path)
    }

    /// The entries of `.strings` data in any of its forms; `path` names the file in errors.
    public static func read(_ data: Data, path: String = "(data)") throws(TremaError) -> [(key: String, value: String)]
    {
        switch PropertyListFormat(of: data) {
        case .binary:
            let root: PropertyListValue
            do throws(BinaryPropertyListReader.Failure) {
                root = try BinaryPropertyListReader.parse(data)
            } catch {
                throw .invalidStringsFile(path: path, line: 1, reason: "byte offset \(error.offset): \(error.reason)")
            }
            return try entries(of: root, path: path)
        case .xml:
            let root: PropertyListValue
            do throws(XMLPropertyListParser.Failure) {
                root = try XMLPropertyListParser.parse(data)
            } catch {
                let (line, column) = XMLPropertyListParser.location(of: error.offset, in: data)
                throw .invalidStringsFile(path: path, line: line, reason: "column \(column): \(error.reason)")
            }
            return try entries(of: root, path: path)
        case .text:
            guard let text = decode(data) else {
                throw .invalidStringsFile(
                    path: path, line: 1, reason: "not UTF-8, and not UTF-16 with a byte-order mark")
            }
            var scanner = StringsScanner(Array(text.unicodeScalars), path: path)
            return try scanner.entries()
        }
    }

    /// The entries as a dictionary; the last of repeated keys wins, as in Foundation.
    public static func table(_ entries: [(key: String, value: String)]) -> [String: String] {
        Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The string entries of a property list's root dictionary, sorted by key.
    private static func entries(
        of root: PropertyListValue, path: String
    ) throws(TremaError) -> [(key: String, value: String)] {
        guard case .dictionary(let values) = root else {
            throw .invalidStringsFile(
                path: path, line: 1, reason: "the property list's root is \(root.typeName), not a dictionary of strings"
            )
        }
        var result: [(key: String, value: String)] = []
        result.reserveCapacity(values.count)
        for key in values.keys.sorted() {
            guard case .string(let value) = values[key] else {
                let type = values[key]?.typeName ?? "nothing"
                throw .invalidStringsFile(
                    path: path, line: 1, reason: "the value of \"\(key)\" is \(type), not a string")
            }
            result.append((key, value))
        }
        return result
    }

    /// Text in UTF-16 (either byte order, after its byte-order mark) or UTF-8; `nil` when ill-formed.
    static func decode(_ data: Data) -> String? {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            let bigEndian = data.first == 0xFE
            let body = data.dropFirst(2)
            guard body.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var index = body.startIndex
            while index < body.endIndex {
                let first = UInt16(body[index])
                let second = UInt16(body[index + 1])
                units.append(bigEndian ? first << 8 | second : second << 8 | first)
                index += 2
            }
            return ValidatedText.utf16(units)
        }
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        return ValidatedText.utf8(body)
    }
}

/// The `.strings` grammar over Unicode scalars.
struct StringsScanner {
    private let scalars: [Unicode.Scalar]
    private let path: String
    private var index = 0
    private var line = 1

    init(_ scalars: [Unicode.Scalar], path: String) {
        self.scalars = scalars
        self.path = path
    }

    private func fail(_ reason: String) -> TremaError {
        .invalidStringsFile(path: path, line: line, reason: reason)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func advance() {
        if scalars[index] == "\n" { line += 1 }
        index += 1
    }

    mutating func entries() throws(TremaError) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        while true {
            try skipSpaceAndComments()
            guard current != nil else { return result }
            let key = try string()
            try skipSpaceAndComments()
            var value = key
            if current == "=" {
                advance()
                try skipSpaceAndComments()
                value = try string()
                try skipSpaceAndComments()
            }
            guard current == ";" else { throw fail("expected ';' after the entry for \"\(key)\"") }
            advance()
            result.append((key, value))
        }
    }

    private mutating func skipSpaceAndComments() throws(TremaError) {
        while let scalar = current {
            if scalar.properties.isWhitespace {
                advance()
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let start = line
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { advance() }
                guard index + 1 < scalars.count else {
                    throw .invalidStringsFile(path: path, line: start, reason: "unterminated comment")
                }
                index += 2
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while let next = current, next != "\n" { advance() }
            } else {
                return
            }
        }
    }

    private mutating func string() throws(TremaError) -> String {
        guard let first = current else { throw fail("expected a string at the end of the file") }
        if first == "\"" { return try quoted() }
        var result = String.UnicodeScalarView()
        while let scalar = current, Self.isUnquoted(scalar) {
            result.append(scalar)
            advance()
        }
        guard !result.isEmpty else { throw fail("unexpected '\(first)'") }
        return String(result)
    }

    private static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "_$+/:.-".unicodeScalars.contains(scalar))
    }

    private mutating func quoted() throws(TremaError) -> String {
        let start = line
        advance()
        var units: [UInt16] = []
        while let scalar = current {
            advance()
            switch scalar {
            case "\"":
                return String(decoding: units, as: UTF16.self)
            case "\\":
                guard let escaped = current else { break }
                advance()
                try appendEscape(escaped, to: &units)
            default:
                units.append(contentsOf: UTF16.encode(scalar) ?? [])
            }
        }
        throw .invalidStringsFile(path: path, line: start, reason: "unterminated string")
    }

    private mutating func appendEscape(_ escaped: Unicode.Scalar, to units: inout [UInt16]) throws(TremaError) {
        switch escaped {
        case "n": units.append(0x0A)
        case "t": units.append(0x09)
        case "r": units.append(0x0D)
        case "a": units.append(0x07)
        case "b": units.append(0x08)
        case "f": units.append(0x0C)
        case "v": units.append(0x0B)
        case "U", "u":
            var value: UInt16 = 0
            for _ in 0..<4 {
                guard let digit = current.flatMap({ UInt16(String($0), radix: 16) }) else {
                    throw fail("\\\(escaped) needs four hexadecimal digits")
                }
                value = value * 16 + digit
                advance()
            }
            units.append(value)
        case "0"..."7":
            var value = UInt16(escaped.value - 48)
            for _ in 0..<2 {
                guard let scalar = current, ("0"..."7").contains(scalar) else { break }
                value = value * 8 + UInt16(scalar.value - 48)
                advance()
            }
            units.append(value)
        default:
            units.append(contentsOf: UTF16.encode(escaped) ?? [])
        }
    }
}

extension UTF16 {
    /// The UTF-16 code units of a scalar.
    static func encode(_ scalar: Unicode.Scalar) -> [UInt16]? {
        Array(String(scalar).utf16)
    }
}
