import GirdersSupport

/// A small, strict XML reader for trema files: elements, attributes, text, the five predefined and numeric
/// character references, CDATA, comments and processing instructions. It rejects what trema files never contain
/// (DTDs, unknown entities) and everything that is not well-formed, with the line and column.
///
/// It replaces `XMLParser` because FoundationXML on Linux costs about 25 µs per trema text (a 20,000-key file took
/// half a second) and refuses a single in-memory document of 10 MB or more.
struct XMLScanner {
    /// Receives what the scanner finds, in document order.
    protocol Handler {
        mutating func startElement(_ name: String, attributes: [(name: String, value: String)], line: Int, column: Int)
        mutating func endElement(_ name: String, line: Int, column: Int)
        mutating func characters(_ text: String, line: Int, column: Int)
    }

    /// Where and why the input is not well-formed.
    struct Failure: Error {
        let line: Int
        let column: Int
        let message: String
    }

    private let bytes: [UInt8]
    /// Where reading stops: the end of the bytes, or of a part (see ``init(utf8:part:insideRoot:line:lineStart:)``).
    private let end: Int
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// The elements open at the start: empty for a whole document, the root's name for a part.
    private let openAtStart: [String]

    /// A scanner over UTF-8 bytes (transcode other encodings first).
    init(utf8 bytes: [UInt8]) {
        self.bytes = bytes
        end = bytes.count
        openAtStart = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        lineStart = index
    }

    /// A scanner over `part` of `bytes`, which starts inside the root element `root`, on `line` (which began at
    /// `lineStart`). Unless the part runs to the end of the bytes, it must end where only the root is open
    /// (``scan(into:)`` fails otherwise), so parts read one after another find what one reading finds.
    init(utf8 bytes: [UInt8], part: Range<Int>, insideRoot root: String?, line: Int, lineStart: Int) {
        self.bytes = bytes
        end = part.upperBound
        index = part.lowerBound
        if root == nil, bytes[part].starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        openAtStart = root.map { [$0] } ?? []
        self.line = line
        self.lineStart = root == nil ? index : lineStart
    }

    private var column: Int { index - lineStart + 1 }

    private func fail(_ message: String) -> Failure {
        Failure(line: line, column: column, message: message)
    }

    private func peek(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= end else { return false }
        return text.withUTF8Buffer { pattern in
            for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
            return true
        }
    }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func skip(until terminator: StaticString, what: String) throws(Failure) {
        let start = fail(what)
        while index < end {
            if peek(terminator) {
                index += terminator.utf8CodeUnitCount
                return
            }
            advance()
        }
        throw Failure(line: start.line, column: start.column, message: "unterminated \(what)")
    }

    /// Reads the whole document, calling `handler` for every element and text.
    mutating func scan<H: Handler>(into handler: inout H) throws(Failure) {
        var open = openAtStart
        var sawRoot = !openAtStart.isEmpty
        while index < end {
            if bytes[index] != UInt8(ascii: "<") {
                let (textLine, textColumn) = (line, column)
                let text = try readText()
                if open.isEmpty {
                    if text.utf8.contains(where: { !Self.isSpace($0) }) {
                        throw Failure(line: textLine, column: textColumn, message: "text outside the root element")
                    }
                } else {
                    handler.characters(text, line: textLine, column: textColumn)
                }
                continue
            }
            // After '<', the next byte says which markup this is (the element's start, most often).
            let next = index + 1 < end ? bytes[index + 1] : 0
            if next == UInt8(ascii: "?") {
                try skip(until: "?>", what: "processing instruction")
            } else if next == UInt8(ascii: "!") && peek("<!--") {
                try skip(until: "-->", what: "comment")
            } else if next == UInt8(ascii: "!") && peek("<![CDATA[") {
                guard !open.isEmpty else { throw fail("CDATA outside the root element") }
                let (cdataLine, cdataColumn) = (line, column)
                index += 9
                let start = index
                while index < end && !peek("]]>") {
                    if bytes[index] == 0xEF && index + 2 < end && bytes[index + 1] == 0xBF
                        && bytes[index + 2] >= 0xBE
                    {
                        throw fail("character U+FFF\(bytes[index + 2] == 0xBE ? "E" : "F") is not allowed in XML 1.0")
                    }
                    advance()
                }
                guard index < end else {
                    throw Failure(line: cdataLine, column: cdataColumn, message: "unterminated CDATA section")
                }
                handler.characters(Self.normalizingNewlines(bytes[start..<index]), line: cdataLine, column: cdataColumn)
                index += 3
            } else if next == UInt8(ascii: "!") {
                throw fail("DTDs and declarations are not allowed in trema files")
            } else if next == UInt8(ascii: "/") {
                let (endLine, endColumn) = (line, column)
                index += 2
                let name = try readName()
                skipSpace()
                guard index < end, bytes[index] == UInt8(ascii: ">") else {
                    throw fail("expected '>' after </\(name)")
                }
                index += 1
                guard let expected = open.popLast() else {
                    throw Failure(line: endLine, column: endColumn, message: "</\(name)> without an open element")
                }
                guard expected == name else {
                    throw Failure(line: endLine, column: endColumn, message: "</\(name)> does not close <\(expected)>")
                }
                handler.endElement(name, line: endLine, column: endColumn)
            } else {
                if open.isEmpty && sawRoot { throw fail("a second root element") }
                let (startLine, startColumn) = (line, column)
                index += 1
                let name = try readName()
                let (attributes, selfClosing) = try readAttributes(of: name)
                sawRoot = true
                handler.startElement(name, attributes: attributes, line: startLine, column: startColumn)
                if selfClosing {
                    handler.endElement(name, line: line, column: column)
                } else {
                    open.append(name)
                }
            }
        }
        if end < bytes.count {
            guard open.count == 1 else { throw fail("a part of the file does not end inside the root element") }
        } else if let unclosed = open.last {
            throw fail("<\(unclosed)> is not closed at the end of the file")
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
            || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    private mutating func skipSpace() {
        while index < end && Self.isSpace(bytes[index]) { advance() }
    }

    private mutating func readName() throws(Failure) -> String {
        let start = index
        while index < end && Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start, !(48...57).contains(bytes[start]), bytes[start] != UInt8(ascii: "-"),
            bytes[start] != UInt8(ascii: ".")
        else { throw fail("expected a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func readAttributes(of element: String) throws(Failure) -> ([(name: String, value: String)], Bool)
    {
        var attributes: [(name: String, value: String)] = []
        // Duplicates: a look through the few attributes elements have, a set once there are many (40,000
        // attributes must not cost seconds).
        var names: Set<String> = []
        while true {
            let hadSpace = index < end && Self.isSpace(bytes[index])
            skipSpace()
            guard index < end else { throw fail("unterminated <\(element)>") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return (attributes, false)
            }
            if peek("/>") {
                index += 2
                return (attributes, true)
            }
            guard hadSpace else { throw fail("expected a space before the next attribute of <\(element)>") }
            let name = try readName()
            skipSpace()
            guard index < end, bytes[index] == UInt8(ascii: "=") else {
                throw fail("expected '=' after attribute \(name)")
            }
            index += 1
            skipSpace()
            guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw fail("the value of attribute \(name) must be quoted")
            }
            let quote = bytes[index]
            index += 1
            let value = try readCharacters(until: quote, inAttribute: true)
            index += 1
            // trema's elements have up to three attributes: one allocation.
            if attributes.isEmpty { attributes.reserveCapacity(4) }
            if attributes.count < 8 {
                if attributes.contains(where: { $0.name == name }) {
                    throw fail("attribute \(name) appears twice on <\(element)>")
                }
            } else {
                if names.isEmpty { names = Set(attributes.map(\.name)) }
                if !names.insert(name).inserted { throw fail("attribute \(name) appears twice on <\(element)>") }
            }
            attributes.append((name, value))
        }
    }

    private mutating func readText() throws(Failure) -> String {
        try readCharacters(until: UInt8(ascii: "<"), inAttribute: false)
    }

    /// Characters up to (not including) `terminator`, with references resolved and newlines normalised.
    private mutating func readCharacters(until terminator: UInt8, inAttribute: Bool) throws(Failure) -> String {
        var stop = index
        var newlines = 0
        var lastNewline = -1
        let stops = RunStops(terminator)
        // Every byte of the document's text passes here: read without bounds checks, up to `limit`, which
        // `bytes.count` bounds (`end` is within it by construction, and a scanner built otherwise stops short).
        let limit = min(end, bytes.count)
        bytes.withUnsafeBufferPointer { bytes in
            stops.table.withUnsafeBufferPointer { table in
                while stop < limit {
                    let byte = bytes[stop]
                    if table[Int(byte)] || byte == terminator {
                        // Line breaks and tabs in text are kept as they are; every other stop needs a closer look.
                        guard !inAttribute && (byte == 0x0A || byte == 0x09) else { break }
                        if byte == 0x0A {
                            newlines += 1
                            lastNewline = stop
                        }
                    }
                    stop += 1
                }
            }
        }
        if stop < end && bytes[stop] == terminator {
            let text = String(decoding: bytes[index..<stop], as: UTF8.self)
            if newlines > 0 {
                line += newlines
                lineStart = lastNewline + 1
            }
            index = stop
            return text
        }
        var result: [UInt8] = []
        result.reserveCapacity(stop - index + 16)
        while index < end {
            let byte = bytes[index]
            if byte == terminator { return String(decoding: result, as: UTF8.self) }
            switch byte {
            case UInt8(ascii: "<"):
                throw fail("'<' is not allowed in an attribute value")
            case UInt8(ascii: "&"):
                try readReference(into: &result)
            case 0x0D:
                index += 1
                if index < end && bytes[index] == 0x0A { advance() }
                result.append(inAttribute ? 0x20 : 0x0A)
            case 0x0A, 0x09:
                advance()
                result.append(inAttribute ? 0x20 : byte)
            case 0xEF where index + 2 < end && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                throw fail("character U+FFF\(bytes[index + 2] == 0xBE ? "E" : "F") is not allowed in XML 1.0")
            case 0..<0x20:
                let hex = String(byte, radix: 16, uppercase: true)
                throw fail(
                    "control character U+\(String(repeating: "0", count: 4 - hex.count) + hex) is not allowed in XML")
            default:
                // The run of bytes up to the next one that needs a look, copied at once.
                var runEnd = index + 1
                while runEnd < end && !stops.contains(bytes[runEnd]) { runEnd += 1 }
                result.append(contentsOf: bytes[index..<runEnd])
                index = runEnd
            }
        }
        if inAttribute { throw fail("unterminated attribute value") }
        return String(decoding: result, as: UTF8.self)
    }

    /// The bytes that end a run of character data copied as it is: every control character, `&`, `<`, 0xEF
    /// (which starts U+FFFE and U+FFFF) and the terminator.
    private struct RunStops {
        /// Whether each of the 256 byte values stops a run whatever the terminator.
        static let common: [Bool] = (0...255).map { byte in
            byte < 0x20 || byte == Int(UInt8(ascii: "&")) || byte == Int(UInt8(ascii: "<")) || byte == 0xEF
        }
        let table = Self.common
        let terminator: UInt8

        init(_ terminator: UInt8) { self.terminator = terminator }

        @inline(__always) func contains(_ byte: UInt8) -> Bool { table[Int(byte)] || byte == terminator }
    }

    private mutating func readReference(into result: inout [UInt8]) throws(Failure) {
        if let byte = predefinedReference() { return result.append(byte) }
        let start = index
        while index < end && bytes[index] != UInt8(ascii: ";") && index - start < 12 { index += 1 }
        guard index < end, bytes[index] == UInt8(ascii: ";") else {
            index = start
            throw fail("'&' must start an entity reference such as &amp;")
        }
        let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        index += 1
        guard let decoded = XMLReference.utf8(named: name) else {
            index = start
            if name.uppercased().hasSuffix("FFFE") || name.uppercased().hasSuffix("FFFF")
                || name.hasSuffix("65534") || name.hasSuffix("65535")
            {
                throw fail("character reference &\(name); is not allowed in XML 1.0")
            }
            throw fail("unknown or invalid reference &\(name);")
        }
        result += decoded
    }

    /// The character of `&amp;`, `&lt;`, `&gt;`, `&quot;` or `&apos;` at the cursor, which is then after it;
    /// `nil` (the cursor unmoved) for any other reference.
    private mutating func predefinedReference() -> UInt8? {
        for (spelling, byte) in Self.predefinedReferences where peek(spelling) {
            index += spelling.utf8CodeUnitCount
            return byte
        }
        return nil
    }

    private static let predefinedReferences: [(StaticString, UInt8)] = [
        ("&amp;", UInt8(ascii: "&")), ("&lt;", UInt8(ascii: "<")), ("&gt;", UInt8(ascii: ">")),
        ("&quot;", UInt8(ascii: "\"")), ("&apos;", UInt8(ascii: "'")),
    ]

    private static func normalizingNewlines(_ slice: ArraySlice<UInt8>) -> String {
        guard slice.contains(0x0D) else { return String(decoding: slice, as: UTF8.self) }
        var result: [UInt8] = []
        var previousCR = false
        for byte in slice {
            if byte == 0x0A && previousCR {
                previousCR = false
                continue
            }
            previousCR = byte == 0x0D
            result.append(previousCR ? 0x0A : byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
