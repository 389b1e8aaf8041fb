import Foundation
import GirdersSupport

/// The head of a server's answer to an opening handshake, read from the bytes of a connection a transport opened
/// itself (libcurl's connect-only connection): a status line and field lines by RFC 9112, strictly, within
/// ``ResponseLimits``. Interim `1xx` heads other than `101` are skipped.
struct UpgradeResponseHead: Sendable, Equatable {
    /// The final head's status code.
    let status: Int
    /// Its fields, in order.
    let fields: [HTTPHeader]
    /// How many bytes the heads took (interim ones included), blank lines included: what follows is the body, or
    /// after a `101` the new protocol's first bytes.
    let length: Int
    /// Field lines of all heads read, for the limit.
    let fieldCount: Int

    /// Why bytes are no head.
    enum Problem: Error, Equatable {
        /// A rule of RFC 9112 broken, with the byte offset.
        case malformed(String)
        /// Past `ResponseLimits.headerBytes` or `headerFields`.
        case limit(ResponseLimits.Limit, Int64)
    }

    /// The head at the start of `bytes`, or `nil` while it is incomplete (read more); throws when the bytes break
    /// a rule or a limit, including an incomplete head already past the byte limit.
    static func parse(_ bytes: [UInt8], limits: ResponseLimits) throws(Problem) -> UpgradeResponseHead? {
        var start = 0
        var fieldCount = 0
        while true {
            guard let end = headEnd(bytes, from: start) else {
                if bytes.count > limits.headerBytes { throw .limit(.headerBytes, Int64(limits.headerBytes)) }
                return nil
            }
            if end > limits.headerBytes { throw .limit(.headerBytes, Int64(limits.headerBytes)) }
            let lines = split(bytes, start..<end)
            guard let statusLine = lines.first else { throw .malformed("an empty head at byte \(start)") }
            let status = try parseStatus(bytes, statusLine)
            var fields: [HTTPHeader] = []
            for line in lines.dropFirst() {
                fields.append(try parseField(bytes, line))
            }
            fieldCount += fields.count
            if fieldCount > limits.headerFields { throw .limit(.headerFields, Int64(limits.headerFields)) }
            if (100..<200).contains(status), status != 101 {
                start = end
                continue
            }
            return UpgradeResponseHead(status: status, fields: fields, length: end, fieldCount: fieldCount)
        }
    }

    /// The offset just past the blank line that ends the head starting at `start` (CRLF CRLF, or bare LFs).
    private static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while let newline = bytes[index...].firstIndex(of: 0x0A) {
            let next = newline + 1
            if next < bytes.count, bytes[next] == 0x0A { return next + 1 }
            if next + 1 < bytes.count, bytes[next] == 0x0D, bytes[next + 1] == 0x0A { return next + 2 }
            index = next
        }
        return nil
    }

    /// The lines of `range` without their endings, blank ones dropped (only the final one is).
    private static func split(_ bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = range.lowerBound
        while start < range.upperBound, let newline = bytes[start..<range.upperBound].firstIndex(of: 0x0A) {
            let stop = newline > start && bytes[newline - 1] == 0x0D ? newline - 1 : newline
            if stop > start { lines.append(start..<stop) }
            start = newline + 1
        }
        return lines
    }

    /// `HTTP/1.x SP 3DIGIT SP reason`.
    private static func parseStatus(_ bytes: [UInt8], _ line: Range<Int>) throws(Problem) -> Int {
        let text = bytes[line]
        guard text.count >= 12, text.starts(with: Array("HTTP/1.".utf8)),
            [0x30, 0x31].contains(text[line.lowerBound + 7]), text[line.lowerBound + 8] == 0x20
        else {
            throw .malformed(
                "the status line at byte \(line.lowerBound) is not 'HTTP/1.x <code> <reason>' (RFC 9112, 4)")
        }
        let digits = text[(line.lowerBound + 9)..<(line.lowerBound + 12)]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }), digits.first != 0x30,
            text.count == 12 || text[line.lowerBound + 12] == 0x20,
            !text.contains(where: { HTTPCharacters.isFieldControl($0) })
        else {
            throw .malformed(
                "the status code at byte \(line.lowerBound + 9) is not three digits from 100 to 999 (RFC 9110, 15)")
        }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `name: value`, the name a token, the value without control characters; a folded line is refused.
    private static func parseField(_ bytes: [UInt8], _ line: Range<Int>) throws(Problem) -> HTTPHeader {
        guard let colon = bytes[line].firstIndex(of: 0x3A), colon > line.lowerBound,
            HTTPCharacters.isToken(bytes[line.lowerBound..<colon])
        else {
            throw .malformed(
                "the field line at byte \(line.lowerBound) has no token name and colon (RFC 9112, 5; a folded line is refused)"
            )
        }
        var valueStart = colon + 1
        var valueStop = line.upperBound
        while valueStart < valueStop, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
        while valueStop > valueStart, bytes[valueStop - 1] == 0x20 || bytes[valueStop - 1] == 0x09 { valueStop -= 1 }
        if let bad = bytes[valueStart..<valueStop].firstIndex(where: { HTTPCharacters.isFieldControl($0) }) {
            throw .malformed("a control character at byte \(bad) in a field value (RFC 9110, 5.5)")
        }
        return HTTPHeader(
            name: String(decoding: bytes[line.lowerBound..<colon], as: UTF8.self),
            value: String(decoding: bytes[valueStart..<valueStop], as: UTF8.self))
    }
}
