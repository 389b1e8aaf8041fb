public import Foundation
import GirdersSupport

/// HTTP and RFC 822/1123 dates without a formatter.
///
/// Parsing accepts the three forms of RFC 9110 section 5.6.7 (IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`,
/// RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`, asctime `Sun Nov  6 08:49:37 1994`) and RFC 822/1123 leniently: the
/// weekday is optional (and, unless `checksWeekday`, not checked, as in GirdersSwift), the day has 1 or 2 digits,
/// the year 2 (`70`-`99` are 19xx, the rest 20xx) or 4, seconds are optional, and the zone is `GMT`, `UT`, `UTC`,
/// `Z`, a US zone (`EST` ... `PDT`), a numeric offset (`+0200`) or missing (GMT, as GirdersSwift read
/// `19 May 2002 15:21`). Formatting writes IMF-fixdate with a literal `GMT`. Pure functions: thread-safe.
public enum HTTPDate {
    /// Parses any of the accepted forms, or returns `nil`.
    ///
    /// - Parameters:
    ///   - text: The date as it appears in a header, for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    ///   - checksWeekday: when `true`, a weekday that is present must be the date's own
    ///     (`Sun, 09 May 2002 ...` is then `nil`: 9 May 2002 was a Thursday); a missing weekday is still accepted.
    public static func parse(_ text: String, checksWeekday: Bool = false) -> Date? {
        ASCIIScanner.scan(text) { parse(&$0, checksWeekday: checksWeekday) }
    }

    /// IMF-fixdate in GMT: `Sun, 06 Nov 1994 08:49:37 GMT`. Fractions of a second are dropped. IMF-fixdate has a
    /// four-digit year, so a date outside the years 0...9999 (or not finite) gives an empty string.
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 2.5e14 else { return "" }
        let (days, secondOfDay) = RFC3339Date.floorDivision(Int(seconds), 86_400)
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        guard (0...9999).contains(year) else { return "" }
        return ASCIIWriter.write(capacity: 29) { output in
            for byte in weekdayNames[CivilCalendar.weekday(fromDays: days)] { output.append(byte) }
            output.append(UInt8(ascii: ","))
            output.append(UInt8(ascii: " "))
            output.append(day, width: 2)
            output.append(UInt8(ascii: " "))
            for byte in monthNames[month - 1] { output.append(byte) }
            output.append(UInt8(ascii: " "))
            output.append(year, width: 4)
            output.append(UInt8(ascii: " "))
            output.appendClock(secondOfDay)
            output.append(" GMT")
        }
    }

    static let weekdayNames: [[UInt8]] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map { Array($0.utf8) }
    static let monthNames: [[UInt8]] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
        "Dec",
    ].map { Array($0.utf8) }
    static let packedMonths: [UInt64] = monthNames.map { name in name.reduce(0) { $0 << 8 | UInt64($1 | 0x20) } }

    static func parse(_ scanner: inout ASCIIScanner, checksWeekday: Bool) -> Date? {
        scanner.skipSpaces()
        var weekday: Int?
        if let byte = scanner.current, (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x7A {
            let word = scanner.word()
            if checksWeekday {
                guard let index = weekdayIndex(word) else { return nil }
                weekday = index
            }
            if !scanner.expect(UInt8(ascii: ",")) {
                return asctime(&scanner, weekday: weekday)
            }
            scanner.skipSpaces()
        }
        guard let day = scanner.number(minimumDigits: 1, maximumDigits: 2)?.value else { return nil }
        guard separator(&scanner), let month = month(&scanner), separator(&scanner),
            let (rawYear, yearDigits) = scanner.number(minimumDigits: 2, maximumDigits: 4), yearDigits != 3
        else { return nil }
        let year = yearDigits == 2 ? (rawYear >= 70 ? 1900 + rawYear : 2000 + rawYear) : rawYear
        scanner.skipSpaces()
        guard let (hour, minute, second) = time(&scanner) else { return nil }
        scanner.skipSpaces()
        var offset = 0
        if !scanner.isAtEnd {
            guard let zoneOffset = zone(&scanner) else { return nil }
            offset = zoneOffset
            scanner.skipSpaces()
        }
        guard scanner.isAtEnd else { return nil }
        return make(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset,
            weekday: weekday)
    }

    static let weekdayFullNames: [(packed: UInt64, length: Int)] = [
        "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    ].map { name in (name.utf8.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }, name.utf8.count) }
    static let packedWeekdays: [UInt64] = weekdayNames.map { name in name.reduce(0) { $0 << 8 | UInt64($1 | 0x20) } }

    /// The weekday (0 is Sunday) a word names, short (`Sun`) or full (`Sunday`), in any case.
    static func weekdayIndex(_ word: (packed: UInt64, length: Int)) -> Int? {
        if word.length == 3 { return packedWeekdays.firstIndex(of: word.packed) }
        return weekdayFullNames.firstIndex { $0.packed == word.packed && $0.length == word.length }
    }

    /// `Nov  6 08:49:37 1994` after the weekday (asctime, always GMT).
    static func asctime(_ scanner: inout ASCIIScanner, weekday: Int?) -> Date? {
        scanner.skipSpaces()
        guard let month = month(&scanner) else { return nil }
        scanner.skipSpaces()
        guard let day = scanner.number(minimumDigits: 1, maximumDigits: 2)?.value else { return nil }
        scanner.skipSpaces()
        guard let (hour, minute, second) = time(&scanner) else { return nil }
        scanner.skipSpaces()
        guard let year = scanner.number(minimumDigits: 4, maximumDigits: 4)?.value else { return nil }
        scanner.skipSpaces()
        guard scanner.isAtEnd else { return nil }
        return make(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: 0,
            weekday: weekday)
    }

    static func separator(_ scanner: inout ASCIIScanner) -> Bool {
        if scanner.expect(UInt8(ascii: "-")) { return true }
        let start = scanner.position
        scanner.skipSpaces()
        return scanner.position > start
    }

    static func month(_ scanner: inout ASCIIScanner) -> Int? {
        let word = scanner.word()
        guard word.length == 3, let index = packedMonths.firstIndex(of: word.packed) else { return nil }
        return index + 1
    }

    /// `HH:MM` or `HH:MM:SS`.
    static func time(_ scanner: inout ASCIIScanner) -> (Int, Int, Int)? {
        guard let hour = scanner.number(minimumDigits: 1, maximumDigits: 2)?.value, scanner.expect(0x3A),
            let minute = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value
        else { return nil }
        var second = 0
        if scanner.expect(0x3A) {
            guard let value = scanner.number(minimumDigits: 2, maximumDigits: 2)?.value else { return nil }
            second = value
        }
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        return (hour, minute, second)
    }

    static let usZones: [(UInt64, Int)] = [
        ("est", -5), ("edt", -4), ("cst", -6), ("cdt", -5), ("mst", -7), ("mdt", -6), ("pst", -8), ("pdt", -7),
        ("gmt", 0), ("utc", 0), ("ut", 0), ("z", 0),
    ].map { name, hours in (name.utf8.reduce(0) { $0 << 8 | UInt64($1) }, hours * 3600) }

    /// A zone name or `±hhmm`, in seconds east of UTC.
    static func zone(_ scanner: inout ASCIIScanner) -> Int? {
        if let sign = scanner.current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.position += 1
            guard let value = scanner.number(minimumDigits: 4, maximumDigits: 4)?.value, value / 100 < 24,
                value % 100 < 60
            else { return nil }
            let offset = value / 100 * 3600 + value % 100 * 60
            return sign == UInt8(ascii: "-") ? -offset : offset
        }
        let word = scanner.word()
        guard word.length > 0, word.length <= 3 else { return nil }
        return usZones.first { $0.0 == word.packed }?.1
    }

    /// The date, or `nil` for a day the month does not have or a `weekday` (0 is Sunday) that is not the date's.
    static func make(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int, weekday: Int?
    ) -> Date? {
        guard (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day) else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        if let weekday, CivilCalendar.weekday(fromDays: days) != weekday { return nil }
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset))
    }
}
