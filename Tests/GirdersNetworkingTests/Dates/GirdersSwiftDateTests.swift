import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// GirdersSwift's date inputs parse to the dates GirdersSwift gave them.
struct GirdersSwiftDateTests {
    /// Thursday, 9 May 2002, 15:21:00 GMT.
    static let may9 = 1_020_957_660.0

    /// GirdersSwift's twelve RFC 822 forms: with or without the weekday (which it never checked, so `Sun` for a
    /// Thursday passes), one- or two-digit days, with or without seconds, with `GMT` or no zone (GMT).
    static let rfc822Forms = [
        "Sun, 9 May 2002 15:21:00 GMT", "Sun, 09 May 2002 15:21:00 GMT", "Sun, 9 May 2002 15:21 GMT",
        "Sun, 09 May 2002 15:21 GMT", "Sun, 9 May 2002 15:21:00", "Sun, 09 May 2002 15:21:00",
        "Sun, 9 May 2002 15:21", "Sun, 09 May 2002 15:21", "9 May 2002 15:21:00 GMT", "9 May 2002 15:21 GMT",
        "9 May 2002 15:21:00", "9 May 2002 15:21",
    ]

    @Test(arguments: rfc822Forms)
    func everyGirdersSwiftRFC822FormParsesToItsDate(text: String) throws {
        let date = try #require(text.parseRFC822Timestamp(), "\(text)")
        #expect(date.timeIntervalSince1970 == Self.may9, "\(text)")
        #expect(Date.parseRFC822Timestamp(text) == date)
    }

    @Test func theStrictParserRefusesAWeekdayThatIsNotTheDates() {
        #expect("Sun, 09 May 2002 15:21:00 GMT".parseRFC822Timestamp(strict: true) == nil)
        #expect(Date.parseRFC822Timestamp("Sun, 09 May 2002 15:21:00 GMT", strict: true) == nil)
        #expect("Thu, 09 May 2002 15:21:00 GMT".parseRFC822Timestamp(strict: true)?.timeIntervalSince1970 == Self.may9)
        #expect("Thursday, 09-May-02 15:21:00 GMT".parseRFC822Timestamp(strict: true) != nil)
        #expect("Thu May  9 15:21:00 2002".parseRFC822Timestamp(strict: true) != nil)
        #expect("Sun May  9 15:21:00 2002".parseRFC822Timestamp(strict: true) == nil)
        #expect("Thx, 09 May 2002 15:21:00 GMT".parseRFC822Timestamp(strict: true) == nil)
        #expect("09 May 2002 15:21:00 GMT".parseRFC822Timestamp(strict: true) != nil, "no weekday, nothing to check")
    }

    @Test func theStrictWeekdayIsTheOneOfTheWrittenDayNotOfUTC() throws {
        // 00:30 on Friday 10 May at +0200 is Thursday 9 May in UTC; the text names Friday.
        let date = try #require("Fri, 10 May 2002 00:30 +0200".parseRFC822Timestamp(strict: true))
        #expect(date.timeIntervalSince1970 == Self.may9 - 15 * 3600 - 21 * 60 + 22.5 * 3600)
        #expect("Thu, 10 May 2002 00:30 +0200".parseRFC822Timestamp(strict: true) == nil)
    }

    @Test(arguments: ["Invalid String Sample", "1996-12-19T16:39:57-0800", ""])
    func whatGirdersSwiftRefusedAsRFC822IsRefused(text: String) {
        #expect(text.parseRFC822Timestamp() == nil)
    }

    @Test(arguments: [
        "2002-05-09T15:21:00-0000", "2002-05-09T15:21:00+0000", "2002-05-09T15:21:00.00-0000", "2002-05-09T15:21:00",
        "2002-05-09T15:21:00Z", "2002-05-09T17:21:00+0200", "2002-05-09T17:21:00+02:00",
    ])
    func everyGirdersSwiftRFC3339FormParsesToItsDate(text: String) throws {
        let date = try #require(text.parseRFC3339Timestamp(), "\(text)")
        #expect(date.timeIntervalSince1970 == Self.may9, "\(text)")
        #expect(Date.parseRFC3339Timestamp(text) == date)
    }

    @Test func theStrictRFC3339ParserStillWantsAnOffsetWithItsColon() {
        #expect(RFC3339Date.parse("2002-05-09T15:21:00") == nil)
        #expect(RFC3339Date.parse("2002-05-09T15:21:00-0000") == nil)
        #expect(RFC3339Date.parse("2002-05-09T15:21:00-0000", acceptingGirdersSwiftForms: true) != nil)
    }

    @Test(arguments: ["Invalid String Sample", "9 May 2002 15:21", "", "2002-05-09T15:21:00+02", "2002-05-09T15:21"])
    func whatGirdersSwiftRefusedAsRFC3339IsRefused(text: String) {
        #expect(text.parseRFC3339Timestamp() == nil, "\(text)")
    }

    @Test func formattingGivesGirdersSwiftsStrings() {
        let date = Date(timeIntervalSince1970: Self.may9)
        #expect(date.toRFC822String() == "Thu, 09 May 2002 15:21:00 GMT")
        #expect(date.toRFC3339String() == "2002-05-09T15:21:00Z")
    }

    @available(*, deprecated, message: "exercises the deprecated GirdersSwift formatter")
    @Test func theDeprecatedFormatterIsAPOSIXGMTFormatterCachedPerThreadAndFormat() {
        let format = "yyyy-MM-dd HH:mm"
        let formatter = Date.dateFormatter(withFormat: format)
        #expect(formatter === Date.dateFormatter(withFormat: format))
        #expect(formatter !== Date.dateFormatter(withFormat: "HH:mm"))
        #expect(formatter.string(from: Date(timeIntervalSince1970: Self.may9)) == "2002-05-09 15:21")
        #expect(formatter.locale.identifier == "en_US_POSIX")
    }
}
