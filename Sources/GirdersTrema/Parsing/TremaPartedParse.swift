import Dispatch
import Foundation
import GirdersSupport

/// A large trema file read in parts at once, one per core, split between two `<text>` elements.
///
/// A part boundary is a `<text` that starts a line. The scanner of each part but the last must end inside the root
/// with nothing else open, which holds only when the boundary really stood between two texts (not inside a comment,
/// a CDATA section, a value or after the root): then each part reads what one reading finds there. Any problem in
/// any part (or a key found in two parts) gives `nil`, and the caller reads the whole file in one piece, so errors
/// are reported exactly as a single reading reports them.
enum TremaPartedParse {
    /// The smallest part worth a thread of its own.
    static let minimumPartSize = 512 * 1024
    /// The most parts, however many cores there are.
    static let maximumParts = 8

    /// How many parts a file of `count` bytes is read in on this machine: 1 reads it in one piece.
    static func partCount(forBytes count: Int) -> Int {
        min(ProcessInfo.processInfo.activeProcessorCount, count / minimumPartSize, maximumParts)
    }

    /// The texts and root attributes read in `parts` parts, or `nil` when the file must be read in one piece.
    static func read(_ utf8: [UInt8], file: String, parts: Int) -> TremaBuilder? {
        let starts = boundaries(in: utf8, parts: parts)
        guard starts.count > 1 else { return nil }
        let builders = LockedState([TremaBuilder?](repeating: nil, count: starts.count))
        DispatchQueue.concurrentPerform(iterations: starts.count) { part in
            let start = starts[part]
            let end = part + 1 < starts.count ? starts[part + 1].offset : utf8.count
            var builder = part == 0 ? TremaBuilder(file: file) : TremaBuilder(file: file, insideRoot: ())
            var scanner = XMLScanner(
                utf8: utf8, part: start.offset..<end, insideRoot: part == 0 ? nil : "trema", line: start.line,
                lineStart: start.lineStart)
            do {
                try scanner.scan(into: &builder)
            } catch {
                return
            }
            guard builder.violations.isEmpty else { return }
            builders.withLock { $0[part] = builder }
        }
        return merged(builders.withLock { $0 })
    }

    /// The parts' builders as one, or `nil` when a part failed or two parts hold the same key.
    private static func merged(_ builders: [TremaBuilder?]) -> TremaBuilder? {
        guard !builders.contains(where: { $0 == nil }), var result = builders.first ?? nil,
            result.masterLanguage != nil
        else { return nil }
        var keys = result.keys
        for case let builder? in builders.dropFirst() {
            for (key, location) in builder.keys {
                guard keys.updateValue(location, forKey: key) == nil else { return nil }
            }
            result.texts += builder.texts
        }
        return result
    }

    /// Where a part starts: its offset, and the line it is on with that line's first offset.
    struct Start {
        let offset: Int
        let line: Int
        let lineStart: Int
    }

    /// The starts of at most `parts` parts of about equal size: the first at 0, each other at a `<text` that
    /// follows a line break and spaces. Fewer when the file has fewer such places.
    static func boundaries(in bytes: [UInt8], parts: Int) -> [Start] {
        var starts = [Start(offset: 0, line: 1, lineStart: 0)]
        guard parts > 1 else { return starts }
        var counted = 0
        var line = 1
        for part in 1..<parts {
            var offset = max(bytes.count / parts * part, (starts.last?.offset ?? 0) + 1)
            while offset < bytes.count, !isTextStartOnItsOwnLine(bytes, at: offset) { offset += 1 }
            guard offset < bytes.count else { break }
            var lineBreak = offset - 1
            while bytes[lineBreak] != 0x0A { lineBreak -= 1 }
            line += bytes[counted..<lineBreak].count { $0 == 0x0A } + 1
            counted = lineBreak + 1
            starts.append(Start(offset: offset, line: line, lineStart: lineBreak + 1))
        }
        return starts
    }

    /// Whether `<text` followed by a space or `>` starts at `offset`, with only spaces and tabs between it and the
    /// line break before it.
    private static func isTextStartOnItsOwnLine(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset + 5 < bytes.count, bytes[offset] == UInt8(ascii: "<"), bytes[offset + 1] == UInt8(ascii: "t"),
            bytes[offset + 2] == UInt8(ascii: "e"), bytes[offset + 3] == UInt8(ascii: "x"),
            bytes[offset + 4] == UInt8(ascii: "t")
        else { return false }
        let next = bytes[offset + 5]
        guard next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D || next == UInt8(ascii: ">") else {
            return false
        }
        var before = offset - 1
        while before >= 0 && (bytes[before] == 0x20 || bytes[before] == 0x09) { before -= 1 }
        return before >= 0 && bytes[before] == 0x0A
    }
}
