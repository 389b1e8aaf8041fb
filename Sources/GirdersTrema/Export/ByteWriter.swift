import Foundation

/// A growing UTF-8 buffer the exporters write into: far cheaper than appending to `String` on Linux.
///
/// The exporters write a few bytes at a time, millions of times per conversion, so the buffer is raw memory
/// rather than an array (whose append checks uniqueness and capacity generically on every call: a quarter of
/// `trema convert`'s instructions went there). It cannot be copied, so exactly one writer owns the memory.
struct ByteWriter: ~Copyable {
    // Invariant: `base` holds `capacity` allocated bytes, the first `count` of them written; only this writer
    // points at them, and every write reserves room first (the test writing past each capacity checks it).
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes have been written.
    private(set) var count = 0

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes, doubling the buffer as often as needed.
    private mutating func reserve(_ extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        var grown = capacity
        while grown < needed { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    mutating func write(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
        reserve(buffer.count)
        (base + count).initialize(from: source, count: buffer.count)
        count += buffer.count
    }

    @inline(__always) mutating func write(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ write($0) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { write($0) }
        }
    }

    mutating func write(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Writes `text` with every ASCII byte that has a replacement in `table` replaced; other bytes (including
    /// those of multi-byte characters) are copied. Text that needs no escaping is copied in one go.
    mutating func write(_ text: String, escaping table: EscapeTable) {
        var text = text
        text.makeContiguousUTF8()
        text.utf8.withContiguousStorageIfAvailable { write($0, escaping: table) }
    }

    /// ``write(_:escaping:)`` of UTF-8 bytes.
    mutating func write(_ source: UnsafeBufferPointer<UInt8>, escaping table: EscapeTable) {
        var start = 0
        table.flat.withUnsafeBufferPointer { flat in
            table.escaped.withUnsafeBufferPointer { escaped in
                // One load and test a byte: `escaped` has an entry for every byte value.
                for position in 0..<source.count where escaped[Int(source[position])] {
                    write(UnsafeBufferPointer(rebasing: source[start..<position]))
                    write(UnsafeBufferPointer(rebasing: flat[table.ranges[Int(source[position])]]))
                    start = position + 1
                }
            }
        }
        write(UnsafeBufferPointer(rebasing: source[start..<source.count]))
    }

    /// The bytes written, copied.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes written, copied.
    var data: Data { Data(bytes: base, count: count) }

    /// The bytes written, handed to a `Data` without a copy (an export's tens of megabytes were copied, and the
    /// copy's pages touched, once more); the writer is used up.
    consuming func takeData() -> Data {
        let (base, count) = (self.base, self.count)
        discard self
        // Invariant: `base` came from `allocate` and, the deinit skipped, only the Data points at it: its
        // deallocator frees it exactly once (`ByteWriterTests.takenDataOutlivesItsWriterWithEveryByte`).
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }
}

/// Replacements for ASCII bytes: whether each of the 256 byte values is replaced, and the replacements in one
/// buffer, so escaping a byte costs one load and no reference counting.
struct EscapeTable: Sendable {
    /// Whether each byte value has a replacement (bytes 0x80 and above never have one).
    let escaped: [Bool]
    let flat: [UInt8]
    let ranges: [Range<Int>]

    /// A table from explicit replacements; control characters without one get `controlPrefix` and 4 hex digits.
    init(_ explicit: [UInt8: String], controlPrefix: String?, uppercaseHex: Bool = true) {
        var replacements = [String?](repeating: nil, count: 128)
        for byte in 0..<UInt8(0x20) where controlPrefix != nil {
            let digits = String(byte, radix: 16, uppercase: uppercaseHex)
            replacements[Int(byte)] = (controlPrefix ?? "") + String(repeating: "0", count: 4 - digits.count) + digits
        }
        for (byte, replacement) in explicit where byte < 0x80 { replacements[Int(byte)] = replacement }
        var escaped = [Bool](repeating: false, count: 256)
        var flat: [UInt8] = []
        var ranges = [Range<Int>](repeating: 0..<0, count: 128)
        for (byte, replacement) in replacements.enumerated() {
            guard let replacement else { continue }
            escaped[byte] = true
            ranges[byte] = flat.count..<(flat.count + replacement.utf8.count)
            flat += replacement.utf8
        }
        self.escaped = escaped
        self.flat = flat
        self.ranges = ranges
    }
}
