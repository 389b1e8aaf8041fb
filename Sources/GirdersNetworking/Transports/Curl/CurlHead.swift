#if canImport(CGirdersCurl)
/// The field lines of one response head as libcurl delivered them (each with its line ending), read at the byte
/// level.
///
/// ``CurlTransfer`` keeps a head as bytes on the engine's thread and looks up only what the transfer itself needs
/// there (`Content-Length`, `Content-Encoding`, whether a `Set-Cookie` came) without making a string; the caller
/// parses every field with ``fields(in:)`` once the transfer has ended.
struct CurlHead {
    /// A field's value as bytes (spaces and tabs around it trimmed), and whether continuation lines (obsolete line
    /// folding) follow it, which make it something other than what its first line says.
    struct Value {
        let bytes: ArraySlice<UInt8>
        let folded: Bool

        /// Whether the value is `lowercased` in any case; never for a folded value.
        func equalsLowercased(_ lowercased: String) -> Bool {
            !folded && bytes.count == lowercased.utf8.count
                && zip(bytes, lowercased.utf8).allSatisfy { CurlHead.lowercased($0) == $1 }
        }

        /// The value as a decimal integer: digits only, at most 18 of them (no overflow), not folded.
        var integer: Int64? {
            guard !folded, !bytes.isEmpty, bytes.count <= 18 else { return nil }
            var value: Int64 = 0
            for byte in bytes {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
    }

    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value of the first field named `lowercasedName` (compared without regard to case), or `nil`.
    func field(_ lowercasedName: String) -> Value? {
        var first: Value?
        forEachField(lowercasedName) { value in
            first = value
            return false
        }
        return first
    }

    /// The value of the first field named `lowercasedName`, and whether a second follows: the common single
    /// lookup without an array.
    func firstField(_ lowercasedName: String) -> (first: Value?, hasMore: Bool) {
        var first: Value?
        var hasMore = false
        forEachField(lowercasedName) { value in
            guard first == nil else {
                hasMore = true
                return false
            }
            first = value
            return true
        }
        return (first, hasMore)
    }

    /// The values of every field named `lowercasedName`, in order.
    func fields(_ lowercasedName: String) -> [Value] {
        var found: [Value] = []
        forEachField(lowercasedName) { value in
            found.append(value)
            return true
        }
        return found
    }

    /// Calls `body` with each field named `lowercasedName`, in order, until it returns `false`; no allocation on
    /// the engine's thread for the common single lookup.
    private func forEachField(_ lowercasedName: String, _ body: (Value) -> Bool) {
        let name = lowercasedName.utf8
        var pending: (start: Int, stop: Int)?  // a match whose next line tells whether it is folded
        var going = true
        Self.forEachLine(of: bytes) { start, stop in
            let continuation = bytes[start] == 0x20 || bytes[start] == 0x09
            if let match = pending {
                pending = nil
                going = body(Value(bytes: bytes[match.start..<match.stop], folded: continuation))
                if !going { return false }
            }
            guard !continuation, stop - start > name.count, bytes[start + name.count] == 0x3A,
                zip(bytes[start..<start + name.count], name).allSatisfy({ Self.lowercased($0) == $1 })
            else { return true }
            pending = Self.trimmed(bytes, from: start + name.count + 1, to: stop)
            return true
        }
        if going, let match = pending { _ = body(Value(bytes: bytes[match.start..<match.stop], folded: false)) }
    }

    /// Every field of `head` in the order received; a continuation line right after a field is joined to it with
    /// a space (obsolete line folding), and a line without a colon is skipped.
    static func fields(in head: [UInt8]) -> [HTTPHeader] {
        var fields: [HTTPHeader] = []
        fields.reserveCapacity(head.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })  // one field a line, at most
        var continues = false  // whether the line before was a field (or its continuation)
        forEachLine(of: head) { start, stop in
            if continues, head[start] == 0x20 || head[start] == 0x09, let last = fields.popLast() {
                let more = trimmed(head, from: start, to: stop)
                fields.append(
                    HTTPHeader(name: last.name, value: last.value + " " + string(head, more.start, more.stop)))
                return true
            }
            guard let colon = head[start..<stop].firstIndex(of: 0x3A) else {
                continues = false
                return true
            }
            let value = trimmed(head, from: colon + 1, to: stop)
            fields.append(HTTPHeader(name: string(head, start, colon), value: string(head, value.start, value.stop)))
            continues = true
            return true
        }
        return fields
    }

    /// Calls `body` with each non-empty line of `bytes` as `start..<stop` without its line ending (CR and LF) until
    /// it returns `false`.
    private static func forEachLine(of bytes: [UInt8], _ body: (Int, Int) -> Bool) {
        var start = 0
        while start < bytes.count {
            let next = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
            var stop = next
            while stop > start, bytes[stop - 1] == 0x0A || bytes[stop - 1] == 0x0D { stop -= 1 }
            if stop > start, !body(start, stop) { return }
            start = next
        }
    }

    /// `start..<stop` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: [UInt8], from start: Int, to stop: Int) -> (start: Int, stop: Int) {
        var start = start
        var stop = stop
        while start < stop, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while stop > start, bytes[stop - 1] == 0x20 || bytes[stop - 1] == 0x09 { stop -= 1 }
        return (start, stop)
    }

    private static func string(_ bytes: [UInt8], _ start: Int, _ stop: Int) -> String {
        String(decoding: bytes[start..<stop], as: UTF8.self)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }
}
#endif
