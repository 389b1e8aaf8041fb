public import Foundation

extension HTTPDate {
    /// Parses exactly the three forms of RFC 9110 section 5.6.7, as its grammar spells them, or returns `nil`:
    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`)
    /// and asctime (`Sun Nov  6 08:49:37 1994`).
    ///
    /// Names are case-sensitive, every space is one space, the hour has two digits, the zone is `GMT` and nothing
    /// else; the weekday must be a weekday's name but is not checked against the date (as no browser checks it). For
    /// fields where an invalid date has a meaning of its own: RFC 9111 section 5.3 says a cache MUST take an invalid
    /// `Expires` as already expired, so `Thu, 18 Aug 2050 02:01:18 UTC`, a two-digit year in IMF-fixdate, two spaces
    /// or a one-digit hour must not read as 2050. ``parse(_:checksWeekday:)`` stays lenient for every other use.
    public static func parseStrict(_ text: String) -> Date? {
        let bytes = Array(text.utf8.prefix(40))
        guard bytes.count < 40 else { return nil }
        var reader = StrictDateReader(bytes: bytes)
        return reader.read()
    }
}

/// The byte-by-byte reader behind ``HTTPDate/parseStrict(_:)``.
private struct StrictDateReader {
    let bytes: [UInt8]
    var position = 0

    static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map {
        Array($0.utf8)
    }
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map {
        Array($0.utf8)
    }

    mutating func read() -> Date? {
        if take(any: Self.longDays) { return take(", ") ? rfc850() : nil }
        guard take(any: Self.shortDays) else { return nil }
        if take(", ") { return imfFixdate() }
        return take(" ") ? asctime() : nil
    }

    /// `06 Nov 1994 08:49:37 GMT` after `Sun, `.
    mutating func imfFixdate() -> Date? {
        guard let day = number(2), take(" "), let month = month(), take(" "), let year = number(4), take(" "),
            let clock = time(), take(" GMT"), position == bytes.count
        else { return nil }
        return date(year, month, day, clock)
    }

    /// `06-Nov-94 08:49:37 GMT` after `Sunday, `: a two-digit year from 1970 to 2069.
    mutating func rfc850() -> Date? {
        guard let day = number(2), take("-"), let month = month(), take("-"), let short = number(2), take(" "),
            let clock = time(), take(" GMT"), position == bytes.count
        else { return nil }
        return date(short >= 70 ? 1900 + short : 2000 + short, month, day, clock)
    }

    /// `Nov  6 08:49:37 1994` after `Sun `: the day is two digits or a space and one digit.
    mutating func asctime() -> Date? {
        guard let month = month(), take(" ") else { return nil }
        let day: Int?
        if take(" ") { day = number(1) } else { day = number(2) }
        guard let day, take(" "), let clock = time(), take(" "), let year = number(4), position == bytes.count
        else { return nil }
        return date(year, month, day, clock)
    }

    func date(_ year: Int, _ month: Int, _ day: Int, _ clock: (Int, Int, Int)) -> Date? {
        HTTPDate.make(
            year: year, month: month, day: day, hour: clock.0, minute: clock.1, second: clock.2, offset: 0,
            weekday: nil)
    }

    /// `HH:MM:SS`, two digits each.
    mutating func time() -> (Int, Int, Int)? {
        guard let hour = number(2), take(":"), let minute = number(2), take(":"), let second = number(2),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        return (hour, minute, second)
    }

    mutating func month() -> Int? {
        for (index, name) in Self.months.enumerated() where matches(name) {
            position += name.count
            return index + 1
        }
        return nil
    }

    /// Exactly `count` digits.
    mutating func number(_ count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<position + count] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        position += count
        return value
    }

    mutating func take(any names: [[UInt8]]) -> Bool {
        guard let name = names.first(where: matches) else { return false }
        position += name.count
        return true
    }

    mutating func take(_ literal: String) -> Bool {
        let expected = Array(literal.utf8)
        guard matches(expected) else { return false }
        position += expected.count
        return true
    }

    func matches(_ expected: [UInt8]) -> Bool {
        position + expected.count <= bytes.count && bytes[position..<position + expected.count].elementsEqual(expected)
    }
}
