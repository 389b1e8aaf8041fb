package import Foundation

/// A reader for binary property lists (`bplist00`) that trusts nothing in the file.
///
/// Foundation's reader crashed on randomly corrupted input and expanded 178 bytes whose objects share references
/// into more than 8 GB. This one checks every offset, count, size and reference against the file before using
/// it, refuses reference cycles, stops at ``maximumDepth`` levels of nesting, and counts every node it builds
/// against a budget of ``nodeBudget(forFileSize:)`` (shared references count each time they are used), so its
/// memory stays within a small multiple of the file. Errors carry the byte offset of the offending object.
///
/// It reads what property lists hold: booleans, integers (up to 8 bytes; 16-byte integers only when they fit in
/// `Int`), reals, dates, data, ASCII and UTF-16 strings, arrays and dictionaries with string keys. Sets, UIDs and
/// `null` are not property-list values and are errors.
package struct BinaryPropertyListReader {
    package struct Failure: Error {
        package let offset: Int
        package let reason: String
    }

    /// The deepest nesting of arrays and dictionaries accepted, as for XML.
    package static let maximumDepth = 512

    /// The most nodes a file of `size` bytes may expand to: every node needs at least one byte of its own or of a
    /// reference to it, so well-formed files written by Apple's tools stay far below it.
    package static func nodeBudget(forFileSize size: Int) -> Int { 4 * size + 1024 }

    private let bytes: [UInt8]
    private let objectCount: Int
    private let offsetSize: Int
    private let referenceSize: Int
    private let offsetTable: Int
    private var budget: Int
    private var inProgress: Set<Int> = []

    /// Parses a whole file.
    package static func parse(_ data: Data) throws(Failure) -> PropertyListValue {
        var reader = try BinaryPropertyListReader(Array(data))
        return try reader.root()
    }

    private init(_ bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw Failure(offset: 0, reason: "not a binary property list (bplist00) or shorter than its trailer")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Failure(offset: trailer + 6, reason: "offset size \(offsetSize) or reference size \(referenceSize)")
        }
        let count = Self.unsigned(bytes, at: trailer + 8, size: 8)
        let table = Self.unsigned(bytes, at: trailer + 24, size: 8)
        guard let count, let table, table >= 8, table <= UInt64(trailer),
            count >= 1, count <= (UInt64(trailer) - table) / UInt64(offsetSize)
        else {
            throw Failure(offset: trailer + 8, reason: "the object count or offset table does not fit in the file")
        }
        objectCount = Int(count)
        offsetTable = Int(table)
        budget = Self.nodeBudget(forFileSize: bytes.count)
    }

    /// Reads the top object and everything below it, keeping open containers on a heap stack (see ``Frame``).
    private mutating func root() throws(Failure) -> PropertyListValue {
        let top = Self.unsigned(bytes, at: bytes.count - 32 + 16, size: 8) ?? .max
        guard top < UInt64(objectCount) else {
            throw Failure(offset: bytes.count - 16, reason: "the top object \(top) is not one of \(objectCount)")
        }
        var open: [Frame] = []
        var next = Int(top)
        while true {
            var finished = try object(next, open: &open)
            while true {
                if let value = finished {
                    guard let last = open.indices.last else { return value }
                    try open[last].add(value)
                }
                guard let last = open.indices.last else { break }
                if open[last].index == open[last].count {
                    let frame = open.removeLast()
                    inProgress.remove(frame.reference)
                    finished = frame.value
                    continue
                }
                next = try nextChild(of: &open[last])
                break
            }
        }
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`, or `nil` when it does not fit in the file.
    private static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64? {
        guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// Where object `reference` starts.
    private func start(of reference: Int) throws(Failure) -> Int {
        let entry = offsetTable + reference * offsetSize
        guard let offset = Self.unsigned(bytes, at: entry, size: offsetSize), offset >= 8,
            offset < UInt64(offsetTable)
        else { throw Failure(offset: entry, reason: "object \(reference) has an offset outside the object area") }
        return Int(offset)
    }

    /// The object's length field: the low nibble, or an integer object after the marker when it is 0xF. Returns
    /// the count and where the contents start.
    private func length(marker offset: Int) throws(Failure) -> (count: Int, contents: Int) {
        let nibble = Int(bytes[offset] & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        guard offset + 1 < offsetTable, bytes[offset + 1] & 0xF0 == 0x10, bytes[offset + 1] & 0x0F <= 3 else {
            throw Failure(offset: offset, reason: "invalid length of the object")
        }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard let count = Self.unsigned(bytes, at: offset + 2, size: size), count <= UInt64(offsetTable) else {
            throw Failure(offset: offset, reason: "the object's length does not fit in the file")
        }
        return (Int(count), offset + 2 + size)
    }

    /// `count` units of `unit` bytes starting at `contents`, checked to lie inside the object area.
    private func checkSpan(_ contents: Int, _ count: Int, unit: Int, object offset: Int) throws(Failure) {
        let (total, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, contents <= offsetTable, total <= offsetTable - contents else {
            throw Failure(offset: offset, reason: "the object's contents run past the object area")
        }
    }

    /// The value of object `reference`, or `nil` when it is an array or dictionary, which is pushed on `open`.
    private mutating func object(_ reference: Int, open: inout [Frame]) throws(Failure) -> PropertyListValue? {
        budget -= 1
        let offset = try start(of: reference)
        guard budget >= 0 else {
            throw Failure(
                offset: offset,
                reason: "the file expands to more than \(Self.nodeBudget(forFileSize: bytes.count)) values "
                    + "(4 per byte, plus 1,024); shared references are counted each time they are used")
        }
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw Failure(offset: offset, reason: "marker 0x\(String(marker, radix: 16)) is not a value")
            }
        case 0x1: return try integer(at: offset)
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            guard size == 4 || size == 8, let raw = Self.unsigned(bytes, at: offset + 1, size: size),
                offset + 1 + size <= offsetTable
            else { throw Failure(offset: offset, reason: "invalid real") }
            return .double(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
        case 0x3:
            guard marker == 0x33, let raw = Self.unsigned(bytes, at: offset + 1, size: 8), offset + 9 <= offsetTable
            else { throw Failure(offset: offset, reason: "invalid date") }
            let seconds = Double(bitPattern: raw)
            guard seconds.isFinite else { throw Failure(offset: offset, reason: "the date is not a finite number") }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (count, contents) = try length(marker: offset)
            try checkSpan(contents, count, unit: 1, object: offset)
            return .data(Data(bytes[contents..<(contents + count)]))
        case 0x5, 0x6:
            return .string(try string(at: offset))
        case 0xA, 0xD:
            open.append(try frame(at: offset, reference: reference, depth: open.count, dictionary: marker >> 4 == 0xD))
            return nil
        default:
            throw Failure(offset: offset, reason: "marker 0x\(String(marker, radix: 16)) is not a property-list value")
        }
    }

    private func integer(at offset: Int) throws(Failure) -> PropertyListValue {
        let size = 1 << Int(bytes[offset] & 0x0F)
        guard size <= 16, offset + 1 + size <= offsetTable else {
            throw Failure(offset: offset, reason: "invalid integer")
        }
        if size == 16 {
            // 128-bit integers: accepted only when the high half is the sign extension of the low half.
            let high = Self.unsigned(bytes, at: offset + 1, size: 8) ?? 1
            let low = Int64(bitPattern: Self.unsigned(bytes, at: offset + 9, size: 8) ?? 0)
            guard high == (low < 0 ? UInt64.max : 0) else {
                throw Failure(offset: offset, reason: "the integer does not fit in a 64-bit signed integer")
            }
            return .integer(Int(low))
        }
        let raw = Self.unsigned(bytes, at: offset + 1, size: size) ?? 0
        // 8-byte integers are signed; 1, 2 and 4 bytes are unsigned.
        return .integer(size == 8 ? Int(Int64(bitPattern: raw)) : Int(raw))
    }

    private func string(at offset: Int) throws(Failure) -> String {
        let (count, contents) = try length(marker: offset)
        if bytes[offset] >> 4 == 0x5 {
            try checkSpan(contents, count, unit: 1, object: offset)
            let slice = bytes[contents..<(contents + count)]
            guard slice.allSatisfy({ $0 < 0x80 }) else {
                throw Failure(offset: offset, reason: "an ASCII string holds a byte above 0x7F")
            }
            return String(decoding: slice, as: UTF8.self)
        }
        try checkSpan(contents, count, unit: 2, object: offset)
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for index in 0..<count {
            units.append(UInt16(bytes[contents + 2 * index]) << 8 | UInt16(bytes[contents + 2 * index + 1]))
        }
        guard let text = ValidatedText.utf16(units) else {
            throw Failure(offset: offset, reason: "a UTF-16 string holds an unpaired surrogate")
        }
        return text
    }

    /// An array or dictionary whose children are being read.
    private struct Frame {
        let reference: Int
        let offset: Int
        let isDictionary: Bool
        let count: Int
        let contents: Int
        var index = 0
        var entries: [String: PropertyListValue] = [:]
        var items: [PropertyListValue] = []
        var key = ""
        var keyOffset = 0

        var value: PropertyListValue { isDictionary ? .dictionary(entries) : .array(items) }

        mutating func add(_ value: PropertyListValue) throws(Failure) {
            index += 1
            guard isDictionary else { return items.append(value) }
            if entries.updateValue(value, forKey: key) != nil {
                throw Failure(offset: keyOffset, reason: "the key \"\(key)\" appears twice in one dictionary")
            }
        }
    }

    private mutating func frame(at offset: Int, reference: Int, depth: Int, dictionary: Bool) throws(Failure) -> Frame {
        guard depth < Self.maximumDepth else {
            throw Failure(offset: offset, reason: "nesting deeper than \(Self.maximumDepth) levels")
        }
        guard inProgress.insert(reference).inserted else {
            throw Failure(offset: offset, reason: "object \(reference) contains itself (a reference cycle)")
        }
        let (count, contents) = try length(marker: offset)
        try checkSpan(contents, count, unit: referenceSize * (dictionary ? 2 : 1), object: offset)
        var frame = Frame(
            reference: reference, offset: offset, isDictionary: dictionary, count: count, contents: contents)
        if dictionary { frame.entries.reserveCapacity(count) } else { frame.items.reserveCapacity(count) }
        return frame
    }

    /// The reference of the frame's next value; for a dictionary, reads and records its key first.
    private mutating func nextChild(of frame: inout Frame) throws(Failure) -> Int {
        guard frame.isDictionary else { return try child(frame.index, of: frame) }
        let keyReference = try child(frame.index, of: frame)
        let keyOffset = try start(of: keyReference)
        guard bytes[keyOffset] >> 4 == 0x5 || bytes[keyOffset] >> 4 == 0x6 else {
            throw Failure(offset: keyOffset, reason: "a dictionary key is not a string")
        }
        budget -= 1
        frame.key = try string(at: keyOffset)
        frame.keyOffset = keyOffset
        return try child(frame.count + frame.index, of: frame)
    }

    private func child(_ index: Int, of frame: Frame) throws(Failure) -> Int {
        let value = Self.unsigned(bytes, at: frame.contents + index * referenceSize, size: referenceSize) ?? .max
        guard value < UInt64(objectCount) else {
            throw Failure(offset: frame.offset, reason: "reference \(value) is not one of \(objectCount) objects")
        }
        return Int(value)
    }
}
