import Foundation

/// Finds a multipart delimiter (`CRLF--boundary`) in a part's bytes fed in chunks of any size, including a part
/// that starts with `--boundary` (its header already ended with CRLF).
struct DelimiterScanner {
    private let delimiter: [UInt8]
    private let delimiterData: Data
    /// The last bytes seen, at most `delimiter.count - 1`, so a delimiter split across chunks is found.
    private var carry: [UInt8]

    init(delimiter: Data) {
        self.delimiter = Array(delimiter)
        self.delimiterData = delimiter
        self.carry = [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
    }

    /// Feeds the next chunk; `true` once the delimiter has appeared.
    mutating func feed(_ chunk: Data) -> Bool {
        let window = carry + chunk.prefix(delimiter.count - 1)
        if Self.contains(window, delimiter) { return true }
        if chunk.range(of: delimiterData) != nil { return true }
        let keep = delimiter.count - 1
        carry = chunk.count >= keep ? Array(chunk.suffix(keep)) : Array((carry + chunk).suffix(keep))
        return false
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
