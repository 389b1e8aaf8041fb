import Foundation
import GirdersTestServers
import Testing

@testable import GirdersHTTPCache
@testable import GirdersNetworking

/// RFC 9111, section 4.2: a stored response's age and freshness lifetime.
struct CacheFreshnessTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func stored(
        _ headers: HTTPHeaders, status: Int = 200, requestAt: Double = 0, responseAt: Double = 0
    )
        -> CachedResponse
    {
        CachedResponse(
            statusCode: status, headers: headers, body: Data(), url: URL(fileURLWithPath: "/x"),
            requestTime: start.addingTimeInterval(requestAt), responseTime: start.addingTimeInterval(responseAt),
            varying: [:])
    }

    func date(_ offset: Double) -> String { HTTPDate.string(from: start.addingTimeInterval(offset)) }

    @Test func theAgeAddsTheApparentAgeOrTheCorrectedAgeValueAndTheResidentTime_RFC9111_4_2_3() {
        // Sent at 0, received at 2; the origin's Date is 10 s before the response arrived; Age 5 (+2 s of delay).
        let response = stored(["Date": date(-8), "Age": "5"], requestAt: 0, responseAt: 2)
        #expect(CacheFreshness.currentAge(response, now: start.addingTimeInterval(32)) == 10 + 30)
        // A larger Age wins over the apparent age: 20 + 2.
        let older = stored(["Date": date(-8), "Age": "20"], requestAt: 0, responseAt: 2)
        #expect(CacheFreshness.currentAge(older, now: start.addingTimeInterval(2)) == 22)
    }

    @Test func anInvalidAgeIsIgnoredAndAListUsesItsFirstMember_RFC9111_5_1() {
        #expect(CacheFreshness.ageValue(["Age": "abc"]) == nil)
        #expect(CacheFreshness.ageValue(["Age": "-3"]) == nil)
        #expect(CacheFreshness.ageValue(["Age": "7, 90"]) == 7)
        #expect(CacheFreshness.currentAge(stored(["Age": "abc"]), now: start) == 0)
    }

    @Test func maxAgeWinsOverExpires_RFC9111_4_2_1() {
        let response = stored(["Cache-Control": "max-age=30", "Date": date(0), "Expires": date(600)])
        #expect(CacheFreshness(response, now: start).lifetime == 30)
    }

    @Test func expiresCountsFromDateNotFromTheLocalClock_RFC9111_4_2_1() {
        // The origin's clock is an hour behind: Expires − Date is still 60 s.
        let response = stored(["Date": date(-3600), "Expires": date(-3540)])
        #expect(CacheFreshness(response, now: start).lifetime == 60)
    }

    @Test(arguments: ["0", "-1", "yesterday", ""])
    func anExpiresThatIsNoDateMeansAlreadyExpired_RFC9111_5_3(_ value: String) {
        let response = stored(["Date": date(0), "Expires": value, "Last-Modified": date(-86_400)])
        #expect(CacheFreshness(response, now: start).lifetime == 0)
    }

    /// The public cache-tests suite's `freshness-expires-invalid-*`: each of these reads as 2050 to a lenient parser,
    /// but is no HTTP-date, so the response is already expired (RFC 9111 section 5.3), as every browser takes it.
    @Test(arguments: [
        "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 50 02:01:18 GMT", "Thu, 18 Aug 2050  02:01:18 GMT",
        "Thu, 18-Aug-2050 02:01:18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 18 Aug 2050 02:01 GMT",
        "thu, 18 Aug 2050 02:01:18 GMT", "Thu, 18 aug 2050 02:01:18 GMT", "Thu 18 Aug 2050 02:01:18 GMT",
        "Thu, 18 Aug 2050 02:01:18 +0000", "Thu, 18 Aug 2050 02:01:18", "Thu, 18 Aug 2050 02:01:18.5 GMT",
        "Thursday, 18 Aug 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 GMT ",
    ])
    func anExpiresOutsideHTTPDatesGrammarIsAlreadyExpired_RFC9111_5_3(_ value: String) {
        let response = stored(["Date": date(0), "Expires": value])
        #expect(CacheFreshness(response, now: start).lifetime == 0, "\(value)")
    }

    /// The three forms RFC 9110 section 5.6.7 defines are read, whatever the weekday says.
    @Test(arguments: [
        "Thu, 18 Aug 2050 02:01:18 GMT", "Thursday, 18-Aug-50 02:01:18 GMT", "Thu Aug 18 02:01:18 2050",
        "Mon, 18 Aug 2050 02:01:18 GMT",
    ])
    func anExpiresInEachFormOfHTTPDateIsRead(_ value: String) throws {
        let expires = try #require(HTTPDate.parseStrict(value))
        #expect(HTTPDate.string(from: expires) == "Thu, 18 Aug 2050 02:01:18 GMT")
        #expect(HTTPDate.parseStrict("Sun Nov  6 08:49:37 1994") == HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
    }

    @Test func theHeuristicIsTenPercentOfTheTimeSinceLastModifiedAtMostADay_RFC9111_4_2_2() {
        #expect(CacheFreshness(stored(["Date": date(0), "Last-Modified": date(-1000)]), now: start).lifetime == 100)
        let old = stored(["Date": date(0), "Last-Modified": date(-100 * 86_400)])
        #expect(CacheFreshness(old, now: start).lifetime == 86_400)
    }

    @Test func noHeuristicForAStatusThatIsNotHeuristicallyCacheable_RFC9111_4_2_2() {
        let headers: HTTPHeaders = ["Date": date(0), "Last-Modified": date(-1000)]
        #expect(CacheFreshness(stored(headers, status: 302), now: start).lifetime == 0)
        #expect(CacheFreshness(stored(headers, status: 404), now: start).lifetime == 100)
        // "public" marks it explicitly cacheable: a heuristic is allowed again.
        var marked = headers
        marked["Cache-Control"] = "public"
        #expect(CacheFreshness(stored(marked, status: 302), now: start).lifetime == 100)
    }

    @Test func withoutAnyFreshnessInformationAResponseIsStale_RFC9111_4_2_1() {
        let freshness = CacheFreshness(stored(["ETag": "\"v1\""]), now: start)
        #expect(freshness.lifetime == 0)
        #expect(!freshness.isFresh)
    }
}
