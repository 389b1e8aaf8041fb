import Foundation
import GirdersSupport
import Testing

/// The calendar arithmetic the date parsers and formatters share, against Foundation's Gregorian calendar and its
/// RFC 3339 formatter.
struct CalendarArithmeticTests {
    @Test func daysAndCivilDatesRoundTripAndAgreeWithFoundationAcrossCenturies() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        let epoch = Date(timeIntervalSince1970: 0)
        // Every 97th day from 1600 to 2400: leap years, century years and 2000 among them.
        for days in stride(from: -135_140, through: 157_054, by: 97) {
            let civil = CivilCalendar.civil(fromDays: days)
            #expect(CivilCalendar.days(year: civil.year, month: civil.month, day: civil.day) == days)
            let date = try #require(calendar.date(byAdding: .day, value: days, to: epoch))
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            #expect(parts.year == civil.year && parts.month == civil.month && parts.day == civil.day, "day \(days)")
            #expect(CivilCalendar.daysInMonth(year: civil.year, month: civil.month)
                == calendar.range(of: .day, in: .month, for: date)?.count)
        }
    }

    @Test func rfc3339StringsAreFoundationsInUTC() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        for seconds in [-2_208_988_800.0, 0, 951_782_400, 1_800_000_000, 4_102_444_799] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RFC3339Format.string(from: date, milliseconds: false) == formatter.string(from: date))
        }
        #expect(RFC3339Format.string(from: Date(timeIntervalSince1970: 0.25), milliseconds: true)
            == "1970-01-01T00:00:00.250Z")
    }
}
