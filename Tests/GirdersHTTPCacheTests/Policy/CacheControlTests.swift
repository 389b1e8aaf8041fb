import GirdersNetworking
import GirdersTestServers
import Testing

@testable import GirdersHTTPCache

/// RFC 9111, section 5.2 (and RFC 9110, sections 5.6.1 to 5.6.4, for the list, token and quoted-string grammar).
struct CacheControlTests {
    @Test func directivesAreACaseInsensitiveListWhoseEmptyElementsAreSkipped_RFC9110_5_6_1() {
        let parsed = CacheControl(fields: [" Max-Age=60, ,no-cache,,PRIVATE "])
        #expect(parsed.directives.map(\.name) == ["max-age", "no-cache", "private"])
        #expect(parsed.maxAge == 60)
        #expect(parsed.noCache && parsed.isPrivate && !parsed.noStore)
    }

    @Test func everyFieldLineIsPartOfOneList_RFC9111_5_2() {
        let parsed = CacheControl(["Cache-Control": "max-age=5"] as HTTPHeaders)
        #expect(parsed.maxAge == 5)
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: "max-age=5")
        headers.add(name: "cache-control", value: "no-store")
        #expect(CacheControl(headers).noStore)
        #expect(CacheControl(headers).maxAge == 5)
    }

    @Test func aQuotedArgumentKeepsItsCommasAndLosesItsQuotedPairs_RFC9110_5_6_4() {
        let parsed = CacheControl(fields: [#"private="Set-Cookie, X-A", max-age="30", ext="a\"b""#])
        #expect(parsed.directives.first { $0.name == "private" }?.argument == "Set-Cookie, X-A")
        #expect(parsed.maxAge == 30)  // the quoted form is accepted (section 5.2)
        #expect(parsed.directives.first { $0.name == "ext" }?.argument == #"a"b"#)
    }

    /// The `cache-control` fuzz target's crash input: a quoted backslash before a combining mark, which its
    /// Character-level escaping lost; the parser reads quoted pairs byte by byte.
    @Test func aQuotedPairBeforeACombiningMarkIsOneEscapedCharacter_RFC9110_5_6_4() {
        let parsed = CacheControl(fields: [",2=\"1I\\\\\u{593}e\", x=\"\\\"\u{301}\""])
        #expect(parsed.directives.map(\.argument) == ["1I\\\u{593}e", "\"\u{301}"])
    }

    @Test func aMalformedDirectiveIsIgnoredAndTheNextOneIsRead_RFC9111_5_2() {
        let parsed = CacheControl(fields: ["max-age=60 junk, no-store, =x, must-revalidate, a b"])
        #expect(parsed.directives.map(\.name) == ["no-store", "must-revalidate"])
        #expect(parsed.maxAge == nil)
        // Whitespace around "=" is not the grammar's.
        #expect(CacheControl(fields: ["max-age = 60"]).directives.isEmpty)
        #expect(CacheControl(fields: ["max-age="]).directives.isEmpty)
    }

    @Test func anUnterminatedQuoteEndsTheFieldAndNothingAfterItIsRead_RFC9110_5_6_4() {
        let parsed = CacheControl(fields: [#"no-cache, private="abc, no-store"#, "max-age=9"])
        #expect(parsed.directives.map(\.name) == ["no-cache", "max-age"])
        #expect(!parsed.noStore)
    }

    @Test func deltaSecondsPastTwoToThe31CountAsTwoToThe31_RFC9111_1_2_2() {
        #expect(CacheControl(fields: ["max-age=99999999999999999999999"]).maxAge == 2_147_483_648)
        #expect(CacheControl(fields: ["stale-if-error=99999999999999999999999"]).staleIfError == 2_147_483_648)
    }

    @Test(arguments: ["max-age=-1", "max-age=1.5", "max-age", "max-age=10, max-age=20", "max-age=0x10"])
    func aMaxAgeThatIsNotOneDeltaSecondsValueMakesTheResponseStale_RFC9111_4_2_1(_ field: String) {
        #expect(CacheControl(fields: [field]).maxAge == 0)
    }

    @Test func aMaxAgeRepeatedWithTheSameValueKeepsIt_RFC9111_4_2_1() {
        #expect(CacheControl(fields: ["max-age=10", "max-age=10"]).maxAge == 10)
    }

    @Test func maxStaleWithoutAnArgumentAcceptsAnyStaleness_RFC9111_5_2_1_2() {
        #expect(CacheControl(fields: ["no-cache"]).maxStale == nil)
        #expect(CacheControl(fields: ["max-stale"]).maxStale == .some(nil))
        #expect(CacheControl(fields: ["max-stale=30"]).maxStale == .some(30))
        #expect(CacheControl(fields: ["max-stale=x"]).maxStale == .some(0))
    }

    @Test func bytesThatAreNotTextNeverStopTheParser() {
        let hostile = String(decoding: [0xFF, 0x00, 0x22, 0x5C, 0x2C, 0x3D, 0x0A, 0x80], as: UTF8.self)
        let parsed = CacheControl(fields: [hostile + ", no-store", "\u{0}max-age=5"])
        #expect(parsed.maxAge == nil)
        #expect(CacheControl(fields: ["max-age=5,\u{7F}, no-store"]).noStore)
    }
}
