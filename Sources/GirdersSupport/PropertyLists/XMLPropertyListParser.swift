package import Foundation

/// A byte-level parser for XML property lists that builds ``PropertyListValue``s directly.
///
/// Foundation's parser plus the conversion of its `Any` tree cost about 90 ms for a 10,000-key file on Linux;
/// this one takes a few milliseconds, and its errors carry the line and column. It accepts what Apple's tools
/// write: an XML declaration, comments, a DOCTYPE, `<plist>` (optional), the nine value elements, empty-element
/// forms (`<true/>`, `<string/>`), the five predefined entities, numeric character references and CDATA.
package struct XMLPropertyListParser {
    package struct Failure: Error {
        package let offset: Int
        package let reason: String
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private static let maximumDepth = 512

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses a whole document; errors carry the byte offset, which ``location(of:in:)`` turns into line:column.
    package static func parse(_ data: Data) throws(Failure) -> PropertyListValue {
        if let offset = firstInvalidUTF8(in: data) { throw Failure(offset: offset, reason: "invalid UTF-8") }
        if let encoding = declaredEncoding(in: data), !["UTF-8", "UTF8"].contains(encoding.uppercased()) {
            throw Failure(
                offset: 0, reason: "the XML declaration says encoding \"\(encoding)\"; only UTF-8 is supported")
        }
        let result: Result<PropertyListValue, Failure> = data.withUnsafeBytes { raw in
            var parser = XMLPropertyListParser(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                return .success(try parser.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The byte offset of the first byte that is not part of valid UTF-8, or `nil`.
    package static func firstInvalidUTF8(in data: Data) -> Int? {
        guard ValidatedText.utf8(data) == nil else { return nil }
        var offset = 0
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    /// The `encoding` of the XML declaration, if the document starts with one that names it.
    package static func declaredEncoding(in data: Data) -> String? {
        let head = String(decoding: data.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml") || head.hasPrefix("\u{FEFF}<?xml"), let end = head.range(of: "?>"),
            let attribute = head[..<end.lowerBound].range(of: "encoding")
        else { return nil }
        let rest = head[attribute.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The 1-based line and column of a byte offset.
    package static func location(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for (index, byte) in data.prefix(offset).enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    // MARK: Document structure

    private mutating func document() throws(Failure) -> PropertyListValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try skipMisc()
        let name = try openTag()
        let value: PropertyListValue
        if name.name == "plist" {
            if name.selfClosing { throw fail("an empty <plist/> holds no value") }
            try skipMisc()
            let inner = try openTag()
            value = try self.value(for: inner)
            try skipMisc()
            try closeTag("plist")
        } else {
            value = try self.value(for: name)
        }
        try skipMisc()
        if position < bytes.count { throw fail("unexpected content after the property list") }
        return value
    }

    /// A `<dict>` or `<array>` whose children are being read; the parser keeps these on its own stack, not the
    /// call stack, so nesting costs heap memory only and a 512-level document parses on a small thread stack.
    private struct OpenContainer {
        let isDictionary: Bool
        var entries: [String: PropertyListValue] = [:]
        var items: [PropertyListValue] = []
        var key = ""
        var keyOffset = 0

        var value: PropertyListValue { isDictionary ? .dictionary(entries) : .array(items) }
    }

    /// Reads the value that `first` opens, with everything nested in it.
    private mutating func value(for first: Tag) throws(Failure) -> PropertyListValue {
        var open: [OpenContainer] = []
        var tag = first
        while true {
            var finished: PropertyListValue?
            if (tag.name == "dict" || tag.name == "array") && !tag.selfClosing {
                if open.count >= Self.maximumDepth { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
                open.append(OpenContainer(isDictionary: tag.name == "dict"))
            } else {
                finished = try leafValue(for: tag)
            }
            while true {
                if let value = finished {
                    guard let top = open.indices.last else { return value }
                    try add(value, to: &open[top])
                }
                guard let top = open.indices.last else { break }
                try skipMisc()
                if try atCloseTag(open[top].isDictionary ? "dict" : "array") {
                    finished = open.removeLast().value
                    continue
                }
                if open[top].isDictionary { try readKey(into: &open[top]) }
                tag = try openTag()
                break
            }
        }
    }

    private mutating func readKey(into container: inout OpenContainer) throws(Failure) {
        let keyTag = try openTag()
        guard keyTag.name == "key" else {
            throw fail("expected <key> in <dict>, found <\(keyTag.name)>", at: keyTag.offset)
        }
        container.key = keyTag.selfClosing ? "" : try text(closing: "key")
        container.keyOffset = keyTag.offset
        try skipMisc()
        if try atCloseTag("dict") { throw fail("the key \"\(container.key)\" has no value") }
    }

    private func add(_ value: PropertyListValue, to container: inout OpenContainer) throws(Failure) {
        guard container.isDictionary else { return container.items.append(value) }
        if container.entries.updateValue(value, forKey: container.key) != nil {
            throw fail("the key \"\(container.key)\" appears twice in one <dict>", at: container.keyOffset)
        }
    }

    /// A value that holds no other: a scalar, or an empty `<dict/>` or `<array/>`.
    private mutating func leafValue(for tag: Tag) throws(Failure) -> PropertyListValue {
        let contentStart = position  // scalar errors point at the start of the value's text
        switch tag.name {
        case "dict": return .dictionary([:])
        case "array": return .array([])
        case "string": return .string(tag.selfClosing ? "" : try text(closing: "string"))
        case "integer": return try integer(try scalar(tag, "integer"), at: contentStart)
        case "real": return try real(try scalar(tag, "real"), at: contentStart)
        case "true", "false":
            if !tag.selfClosing {
                try skipWhitespace()
                try closeTag(tag.name)
            }
            return .bool(tag.name == "true")
        case "date": return try date(try scalar(tag, "date"), at: contentStart)
        case "data": return try data(tag.selfClosing ? "" : try text(closing: "data"), at: contentStart)
        default: throw fail("unknown element <\(tag.name)>", at: tag.offset)
        }
    }

    // MARK: Lexing

    struct Tag {
        let name: String
        let selfClosing: Bool
        let offset: Int
    }

    /// Reads `<name attributes...>` or `<name .../>`.
    private mutating func openTag() throws(Failure) -> Tag {
        let start = position
        guard peek() == UInt8(ascii: "<") else { throw fail("expected an element") }
        position += 1
        let name = readName()
        if name.isEmpty { throw fail("expected an element name", at: start) }
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let end = find(byte, from: position + 1) else { throw fail("unterminated attribute value") }
                position = end + 1
            } else {
                position += 1
            }
        }
        guard position < bytes.count else { throw fail("unterminated <\(name)> tag", at: start) }
        let selfClosing = position > start && bytes[position - 1] == UInt8(ascii: "/")
        position += 1
        return Tag(name: name, selfClosing: selfClosing, offset: start)
    }

    private mutating func closeTag(_ name: String) throws(Failure) {
        guard try atCloseTag(name) else { throw fail("expected </\(name)>") }
    }

    /// Consumes `</name>` if it comes next; another closing tag is an error (mismatched nesting).
    private mutating func atCloseTag(_ name: String) throws(Failure) -> Bool {
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "<"), bytes[position + 1] == UInt8(ascii: "/")
        else { return false }
        let start = position
        var expected = name
        let matched = expected.withUTF8 { expected in
            let end = start + 2 + expected.count
            guard end < bytes.count, bytes[end] == UInt8(ascii: ">") else { return false }
            for index in 0..<expected.count where bytes[start + 2 + index] != expected[index] { return false }
            return true
        }
        if matched {
            position = start + 3 + name.utf8.count
            return true
        }
        position += 2
        let found = readName()
        try skipWhitespace()
        guard found == name, peek() == UInt8(ascii: ">") else {
            throw fail("expected </\(name)>, found </\(found)>", at: start)
        }
        position += 1
        return true
    }

    private mutating func readName() -> String {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            let isNameByte =
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            guard isNameByte else { break }
            position += 1
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// Reads character data up to `</name>`, decoding entities and CDATA sections.
    mutating func text(closing name: String) throws(Failure) -> String {
        let start = position
        var decoded: [UInt8]?
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if matches("<![CDATA[") {
                    decoded = (decoded ?? []) + bytes[runStart..<position]
                    guard let end = find("]]>", from: position + 9) else { throw fail("unterminated CDATA section") }
                    decoded?.append(contentsOf: bytes[(position + 9)..<end])
                    position = end + 3
                    runStart = position
                    continue
                }
                let textEnd = position
                guard try atCloseTag(name) else { throw fail("unexpected markup inside <\(name)>") }
                guard var result = decoded else {
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<textEnd]), as: UTF8.self)
                }
                result.append(contentsOf: bytes[runStart..<textEnd])
                return String(decoding: result, as: UTF8.self)
            }
            if byte == UInt8(ascii: "&") {
                decoded = (decoded ?? []) + bytes[runStart..<position]
                decoded?.append(contentsOf: try entity())
                runStart = position
                continue
            }
            position += 1
        }
        throw fail("unterminated <\(name)> element", at: start)
    }

    /// Decodes `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#NNN;` and `&#xHH;` into UTF-8 (``XMLReference``: a
    /// reference to a character XML 1.0 forbids, such as `&#1;`, is refused, as Foundation's parser refuses it).
    private mutating func entity() throws(Failure) -> [UInt8] {
        let start = position
        guard let end = find(UInt8(ascii: ";"), from: position + 1), end - position <= 12 else {
            throw fail("unterminated entity reference")
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(position + 1)..<end]), as: UTF8.self)
        position = end + 1
        guard let decoded = XMLReference.utf8(named: name) else { throw fail("unknown entity &\(name);", at: start) }
        return decoded
    }

    /// Skips white space, comments, processing instructions and a DOCTYPE.
    private mutating func skipMisc() throws(Failure) {
        while true {
            try skipWhitespace()
            if matches("<!--") {
                guard let end = find("-->", from: position + 4) else { throw fail("unterminated comment") }
                position = end + 3
            } else if matches("<?") {
                guard let end = find("?>", from: position + 2) else {
                    throw fail("unterminated processing instruction")
                }
                position = end + 2
            } else if matches("<!DOCTYPE") {
                guard let end = find(UInt8(ascii: ">"), from: position) else { throw fail("unterminated DOCTYPE") }
                position = end + 1
            } else {
                return
            }
        }
    }

    private mutating func skipWhitespace() throws(Failure) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { expected in
            for index in 0..<count where bytes[position + index] != expected[index] { return false }
            return true
        }
    }

    private func find(_ byte: UInt8, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private func find(_ literal: StaticString, from start: Int) -> Int? {
        literal.withUTF8Buffer { needle in
            guard let first = needle.first else { return nil }
            var index = start
            while let candidate = find(first, from: index) {
                guard candidate + needle.count <= bytes.count else { return nil }
                var same = true
                for offset in 1..<needle.count where bytes[candidate + offset] != needle[offset] {
                    same = false
                    break
                }
                if same { return candidate }
                index = candidate + 1
            }
            return nil
        }
    }

    func fail(_ reason: String, at offset: Int? = nil) -> Failure {
        Failure(offset: offset ?? position, reason: reason)
    }
}
