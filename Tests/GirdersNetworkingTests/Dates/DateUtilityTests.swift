import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

struct RFC3339DateTests {
    @Test(arguments: [
        ("1985-04-12T23:20:50.52Z", 482_196_050.52),
        ("1996-12-19T16:39:57-08:00", 851_042_397),
        ("1990-12-31T23:59:60Z", 662_688_000),  // a leap second counts into the next minute
        ("1990-12-31T15:59:60-08:00", 662_688_000),
        ("1937-01-01T12:00:27.87+00:20", -1_041_337_172.13),
        ("2026-11-22t13:30:56z", 1_795_354_256),
        ("2026-11-22 13:30:56Z", 1_795_354_256),
        ("2026-11-22T13:30:56.123456789Z", 1_795_354_256.123456789),
        ("2026-11-22T13:30:56.1234567891234Z", 1_795_354_256.123456789),
        ("2000-02-29T00:00:00+14:00", 951_732_000),
    ])
    func theRFCExamplesAndOurOwnParse(text: String, seconds: Double) throws {
        let date = try #require(RFC3339Date.parse(text), "\(text)")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6, "\(text)")
        #expect(Date.parseRFC3339Timestamp(text) == date)
    }

    @Test(arguments: [
        "", "2026-11-22", "2026-11-22T13:30Z", "2026-11-22T13:30:56", "2026-11-22T13:30:56+0100",
        "2026-11-22T13:30:56.Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-22T24:00:00Z",
        "2026-11-22T13:60:00Z", "2026-11-22T13:30:61Z", "2026-11-22X13:30:56Z", "26-11-22T13:30:56Z",
        "2026-11-22T13:30:56Z ", "2026-11-22T13:30:56+24:00",
    ])
    func malformedTimestampsGiveNil(text: String) {
        #expect(RFC3339Date.parse(text) == nil, "\(text)")
    }

    @Test func formattingIsUTCWithOptionalTruncatedMilliseconds() {
        let date = Date(timeIntervalSince1970: 1_795_354_256.9876)
        #expect(date.toRFC3339String() == "2026-11-22T13:30:56Z")
        #expect(date.toRFC3339String(includingMilliseconds: true) == "2026-11-22T13:30:56.987Z")
        #expect(
            Date(timeIntervalSince1970: -0.5).toRFC3339String(includingMilliseconds: true)
                == "1969-12-31T23:59:59.500Z")
    }

    @Test func randomDatesAgreeWithFoundationBothWays() throws {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
            let date = Date(timeIntervalSince1970: (Double(milliseconds) + 0.25) / 1000)
            let ours = RFC3339Date.string(from: date, includingMilliseconds: true)
            #expect(ours == date.formatted(style), "\(milliseconds)")
            let parsed = try #require(RFC3339Date.parse(ours))
            #expect(abs(parsed.timeIntervalSince1970 - Double(milliseconds) / 1000) < 1e-6)
        }
    }
}

struct HTTPDateTests {
    static let rfc9110Example = 784_111_777.0

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
        "Sun Nov  6 08:49:37 1994",  // asctime
        "Sun, 6 Nov 1994 08:49:37 GMT", "06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 UT",
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 Z", "sun, 06 nov 1994 08:49:37 gmt",
        "Sun, 06 Nov 1994 03:49:37 EST", "Sun, 06 Nov 1994 00:49:37 PST", "Sun, 06 Nov 1994 09:49:37 +0100",
        "Sun, 06 Nov 1994 07:19:37 -0130", "  Sun, 06 Nov 1994 08:49:37 GMT  ",
    ])
    func everyAcceptedFormOfTheRFC9110ExampleParses(text: String) throws {
        let date = try #require(HTTPDate.parse(text), "\(text)")
        #expect(date.timeIntervalSince1970 == Self.rfc9110Example, "\(text)")
        #expect(Date.parseRFC822Timestamp(text) == date)
    }

    @Test func theRFC822ExampleWithoutSecondsAndWithAUSZoneParses() throws {
        // RFC 822 section 5.2: "26 Aug 76 14:29 EDT" is 18:29 UTC.
        let date = try #require(HTTPDate.parse("26 Aug 76 14:29 EDT"))
        #expect(date.timeIntervalSince1970 == 209932140)
    }

    @Test(arguments: [
        "", "garbage", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 XYZ", "Sun, 06 Nov 1994 08:49:37 GMT extra",
        "Sun, 06 Nov 199 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 G", "Sun Nov  6 08:49:37", "Sun, Nov 06 1994",
        "Sun, 06 Nov 1994 08:49:37 +01", "Sun, 06 Nov 1994 8:4:37 GMT",
    ])
    func malformedDatesGiveNil(text: String) {
        #expect(HTTPDate.parse(text) == nil, "\(text)")
    }

    @Test func formattingWritesIMFFixdateWithALiteralGMT() {
        #expect(Date(timeIntervalSince1970: Self.rfc9110Example).toRFC822String() == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(Date(timeIntervalSince1970: 0).toRFC822String() == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(Date(timeIntervalSince1970: -1).toRFC822String() == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(Date.distantFuture.addingTimeInterval(1e12).toRFC822String() == "", "a year beyond 9999")
    }

    @Test func randomDatesAgreeWithAPOSIXDateFormatterAndRoundTrip() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: 0...4_102_444_800, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            let ours = HTTPDate.string(from: date)
            #expect(ours == formatter.string(from: date))
            #expect(HTTPDate.parse(ours) == date)
        }
    }

    @Test func parsingFromManyThreadsAtOnceGivesTheSameAnswers() async {
        let texts = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"]
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    (0..<5_000).allSatisfy { _ in
                        HTTPDate.parse(texts[index % 3])?.timeIntervalSince1970 == Self.rfc9110Example
                            && RFC3339Date.parse("1996-12-19T16:39:57-08:00")?.timeIntervalSince1970 == 851_042_397
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
