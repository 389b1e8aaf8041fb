/// Proleptic Gregorian calendar arithmetic in UTC (Howard Hinnant's algorithms): no `Calendar`, no locks, no
/// allocation, so date parsing and formatting are thread-safe and fast.
enum CivilCalendar {
    /// Days since 1970-01-01 for a year, month (1...12) and day (1...31).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a day count since 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in a month, leap years included.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// 0 is Thursday (1970-01-01); returns 0 = Sunday ... 6 = Saturday.
    static func weekday(fromDays days: Int) -> Int {
        ((days % 7) + 7 + 4) % 7
    }
}

/// A cursor over ASCII bytes for the date parsers.
struct ASCIIScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// Runs `body` with a scanner over the UTF-8 bytes of `text`.
    static func scan<Result>(_ text: String, _ body: (inout ASCIIScanner) -> Result) -> Result {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = ASCIIScanner(bytes: bytes)
            return body(&scanner)
        }
    }

    var isAtEnd: Bool { position >= bytes.count }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpaces() {
        while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { position += 1 }
    }

    /// Reads `minimum...maximum` decimal digits.
    mutating func number(minimumDigits: Int, maximumDigits: Int) -> (value: Int, digits: Int)? {
        var value = 0
        var digits = 0
        while digits < maximumDigits, let byte = current, byte >= 0x30, byte <= 0x39 {
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            position += 1
        }
        return digits >= minimumDigits ? (value, digits) : nil
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        position += 1
        return true
    }

    /// Reads letters and returns them lowercased, packed into an integer for cheap comparisons.
    mutating func word() -> (packed: UInt64, length: Int) {
        var packed: UInt64 = 0
        var length = 0
        while let byte = current, (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x7A {
            if length < 8 { packed = packed << 8 | UInt64(byte | 0x20) }
            length += 1
            position += 1
        }
        return (packed, length)
    }

    static func pack(_ text: StaticString) -> UInt64 {
        text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }
}

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
