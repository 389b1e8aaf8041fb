import Foundation
import GirdersSupport

/// The cookie-date algorithm of RFC 6265 section 5.1.1, which reads the `Expires` values servers really send
/// (`Wed, 21 Oct 2015 07:28:00 GMT`, `Wed, 21-Oct-15 07:28:00 GMT`, asctime's form) and refuses impossible ones.
enum CookieDate {
    /// The date `text` names, or `nil` when the algorithm fails (the attribute is then ignored).
    static func parse(_ text: Substring) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            let bytes = Array(token)
            if time == nil, let found = timeOfDay(bytes) {
                time = found
            } else if day == nil, let digits = leadingDigits(bytes, 1...2) {
                day = digits
            } else if month == nil, let found = monthIndex(bytes) {
                month = found
            } else if year == nil, let digits = leadingDigits(bytes, 2...4) {
                year = digits
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if year >= 70 && year <= 99 { year += 1900 } else if year <= 69 { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        guard day <= CivilCalendar.daysInMonth(year: year, month: month) else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Section 5.1.1's delimiters: tab, space to `/`, `;` to `@`, `[` to `` ` ``, `{` to `~`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    /// 1-2 digits, then optionally anything that is not a digit.
    private static func leadingDigits(_ bytes: [UInt8], _ count: ClosedRange<Int>) -> Int? {
        let digits = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard count.contains(digits.count) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `h[h]:m[m]:s[s]`, optionally followed by non-digits.
    private static func timeOfDay(_ bytes: [UInt8]) -> (Int, Int, Int)? {
        var fields: [Int] = []
        var index = 0
        while fields.count < 3 {
            var value = 0
            var length = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, length < 2 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
                length += 1
            }
            guard length > 0 else { return nil }
            fields.append(value)
            if fields.count < 3 {
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
            }
        }
        if index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { return nil }
        return (fields[0], fields[1], fields[2])
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The month (1-12) whose name the token's first three letters spell, in any case.
    private static func monthIndex(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 3 else { return nil }
        let prefix = String(decoding: bytes.prefix(3).map { $0 | 0x20 }, as: UTF8.self)
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }
}
