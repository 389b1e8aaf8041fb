public import Foundation
import GirdersSupport

/// RFC 3339 timestamps without a formatter: `2026-11-22T13:30:56Z`, `2026-11-22t13:30:56.123456789+01:00`.
///
/// Parsing accepts 0 to 9 fraction digits (more are read and ignored), `Z`/`z` or a numeric offset, `T`/`t` or a
/// space between date and time, and a leap second (`:60`, counted into the next minute). Everything else,
/// including out-of-range fields such as February 30, gives `nil`. Pure functions: thread-safe, nothing cached.
public enum RFC3339Date {
    /// Parses a timestamp, or returns `nil`.
    ///
    /// - Parameters:
    ///   - text: The timestamp, for example `2026-11-22T13:30:56.123Z`.
    ///   - acceptingGirdersSwiftForms: when `true`, also GirdersSwift's non-RFC forms: no offset (UTC,
    ///     `2002-05-09T15:21:00`) and an offset without its colon (`-0800`, `+0000`, `-0000`).
    public static func parse(_ text: String, acceptingGirdersSwiftForms: Bool = false) -> Date? {
        ASCIIScanner.scan(text) { parse(&$0, lenient: acceptingGirdersSwiftForms) }
    }

    /// Formats in UTC: `2026-11-22T13:30:56Z`, or with milliseconds `2026-11-22T13:30:56.123Z` (truncated).
    public static func string(from date: Date, includingMilliseconds: Bool = false) -> String {
        RFC3339Format.string(from: date, milliseconds: includingMilliseconds)
    }

    static func parse(_ scanner: inout ASCIIScanner, lenient: Bool) -> Date? {
        guard let year = scanner.number(minimumDigits: 4, maximumDigits: 4)?.value, scanner.expect(0x2D),
            let month = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value, scanner.expect(0x2D),
            let day = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value,
            (1...12).contains(month), (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        guard let separator = scanner.current,
            separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
                || separator == UInt8(ascii: " ")
        else { return nil }
        scanner.position += 1
        guard let hour = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value, scanner.expect(0x3A),
            let minute = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value, scanner.expect(0x3A),
            let second = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value,
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        if scanner.expect(0x2E) {
            var scale = 0.1
            var digits = 0
            while let byte = scanner.current, byte >= 0x30, byte <= 0x39 {
                if digits < 9 { fraction += Double(byte - 0x30) * scale }
                scale /= 10
                digits += 1
                scanner.position += 1
            }
            if digits == 0 { return nil }
        }
        guard let offset = zoneOffset(&scanner, lenient: lenient), scanner.isAtEnd else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `Z`, `z` or `±hh:mm`, in seconds east of UTC; when `lenient`, also `±hhmm` and nothing (UTC).
    static func zoneOffset(_ scanner: inout ASCIIScanner, lenient: Bool) -> Int? {
        guard let byte = scanner.current else { return lenient ? 0 : nil }
        if byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "z") {
            scanner.position += 1
            return 0
        }
        guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return nil }
        scanner.position += 1
        guard let hours = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value,
            scanner.expect(0x3A) || lenient, let minutes = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value,
            hours < 24, minutes < 60
        else { return nil }
        let offset = hours * 3600 + minutes * 60
        return byte == UInt8(ascii: "-") ? -offset : offset
    }

    static func floorDivision(_ value: Int, _ divisor: Int) -> (Int, Int) {
        let (quotient, remainder) = RFC3339Format.floorDivision(Int64(value), Int64(divisor))
        return (Int(quotient), Int(remainder))
    }
}
