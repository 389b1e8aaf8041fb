/// Writes ASCII into a fixed stack buffer and makes one `String` at the end: date formatting without
/// intermediate strings.
struct ASCIIWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// Appends `value` as exactly `width` decimal digits (leading zeros; `value` must fit).
    mutating func append(_ value: Int, width: Int) {
        var remaining = value
        for index in stride(from: count + width - 1, through: count, by: -1) {
            buffer[index] = UInt8(truncatingIfNeeded: 0x30 + remaining % 10)
            remaining /= 10
        }
        count += width
    }

    /// Appends a second of the day as `HH:MM:SS`.
    mutating func appendClock(_ secondOfDay: Int) {
        append(secondOfDay / 3600, width: 2)
        append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2)
        append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { for byte in $0 { append(byte) } }
    }

    var string: String { String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self) }

    /// Runs `body` with a writer over `capacity` bytes of stack memory and returns what it wrote.
    static func write(capacity: Int, _ body: (inout ASCIIWriter) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = ASCIIWriter(buffer)
            body(&writer)
            return writer.string
        }
    }
}
