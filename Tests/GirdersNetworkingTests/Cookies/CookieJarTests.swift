import Foundation
import GirdersSupport
import GirdersTestServers
import Testing

@testable import GirdersNetworking

/// RFC 6265 (and 6265bis where it is stricter) in ``RFC6265CookieJar``: each case below is one the Linux default
/// (FoundationNetworking's `HTTPCookieStorage`) got wrong.
struct CookieJarTests {
    /// A jar whose clock the test moves.
    final class Clock: Sendable {
        let now = LockedState(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.value = now.value.addingTimeInterval(seconds) }
    }

    func jar(_ limits: CookieJarLimits = CookieJarLimits(), clock: Clock = Clock()) -> RFC6265CookieJar {
        RFC6265CookieJar(limits: limits, file: nil, cookies: [], clock: { clock.now.value })
    }

    func url(_ text: String) -> URL { URL(string: text) ?? URL(fileURLWithPath: "/not-a-url") }

    @Test func aSecureCookieSetOverHTTPSIsNeverSentOverPlainHTTP() {
        let jar = jar()
        jar.store(["id=1; Secure", "plain=2"], from: url("https://bank.example/"))
        #expect(jar.cookieHeader(for: url("https://bank.example/")) == "id=1; plain=2")
        #expect(jar.cookieHeader(for: url("http://bank.example/")) == "plain=2")
    }

    @Test func aSemicolonOrEqualsSignFollowedByACombiningMarkStillSeparates() {
        let jar = jar()
        // One Character (";" and U+0301), two scalars: the value ends at the semicolon, so no second cookie rides in it.
        jar.store(["sid=1;\u{301} __Host-admin=1"], from: url("https://example.com/"))
        #expect(jar.cookieHeader(for: url("https://example.com/")) == "sid=1")
        jar.store(["a=\u{301}b; Path=/x"], from: url("https://example.com/"))
        #expect(jar.cookieHeader(for: url("https://example.com/x")) == "a=\u{301}b; sid=1")
    }

    @Test func aSecureCookieFromPlainHTTPIsIgnoredButLoopbackCountsAsSecure() {
        let jar = jar()
        jar.store(["id=1; Secure"], from: url("http://bank.example/"))
        #expect(jar.allCookies.isEmpty)
        jar.store(["id=1; Secure"], from: url("http://127.0.0.1:8080/"))
        jar.store(["id=2; Secure"], from: url("http://localhost/"))
        #expect(jar.cookieHeader(for: url("http://127.0.0.1:8080/")) == "id=1")
        #expect(jar.cookieHeader(for: url("http://localhost/")) == "id=2")
    }

    @Test func aPublicSuffixIsNeverACookieDomain() throws {
        try #require(PublicSuffixList.unavailableReason == nil, "libpsl is part of the Linux runtime")
        let jar = jar()
        jar.store(["steal=1; Domain=co.uk", "mine=2; Domain=.evil.co.uk"], from: url("http://a.evil.co.uk/"))
        #expect(jar.cookieHeader(for: url("http://bank.co.uk/")) == nil)
        #expect(jar.cookieHeader(for: url("http://b.evil.co.uk/")) == "mine=2")
        // A private-section suffix too: one github.io site cannot set cookies for every other.
        jar.store(["steal=1; Domain=github.io"], from: url("https://attacker.github.io/"))
        #expect(jar.cookieHeader(for: url("https://victim.github.io/")) == nil)
        // A host that is itself a public suffix may set a host-only cookie with its own name as Domain.
        jar.store(["own=1; Domain=co.uk"], from: url("http://co.uk/"))
        #expect(jar.cookieHeader(for: url("http://co.uk/")) == "own=1")
        #expect(jar.cookieHeader(for: url("http://www.co.uk/")) == nil)
    }

    @Test func withoutAPublicSuffixListOnlyTheHostItselfIsADomainAndItsCookiesStayHostOnly() {
        let none = NoPublicSuffixList(reason: "no libpsl here")
        #expect(none.unavailableReason == "no libpsl here")
        #expect(CookieDomain.scope(ofDomain: "example.com", forHost: "example.com", list: none) == .hostOnly)
        #expect(CookieDomain.scope(ofDomain: "example.com", forHost: "api.example.com", list: none) == nil)
        #expect(CookieDomain.scope(ofDomain: "co.uk", forHost: "a.evil.co.uk", list: none) == nil)
        #expect(CookieDomain.scope(ofDomain: "other.com", forHost: "example.com", list: none) == nil)
        // With the list, a registrable parent domain is accepted and the host's own name is a domain cookie.
        if PublicSuffixList.unavailableReason == nil {
            #expect(CookieDomain.scope(ofDomain: "example.com", forHost: "api.example.com") == .domain)
            #expect(CookieDomain.scope(ofDomain: "example.com", forHost: "example.com") == .domain)
        }
    }

    @Test func hostOnlyAndDomainCookiesReachTheirHostsOnly() {
        let jar = jar()
        jar.store(["host=1", "wide=2; Domain=Example.COM"], from: url("http://example.com/"))
        jar.store(["other=3; Domain=other.com", "parent=4; Domain=com"], from: url("http://example.com/"))
        #expect(jar.cookieHeader(for: url("http://example.com/")) == "host=1; wide=2")
        #expect(jar.cookieHeader(for: url("http://api.example.com/")) == "wide=2")
        #expect(jar.cookieHeader(for: url("http://other.com/")) == nil)
        #expect(jar.cookieHeader(for: url("http://notexample.com/")) == nil)
        jar.store(["ip=1; Domain=0.0.1"], from: url("http://127.0.0.1/"))
        #expect(jar.cookieHeader(for: url("http://127.0.0.1/")) == nil)
    }

    @Test func pathsMatchByRFC6265AndLongerPathsComeFirst() {
        let clock = Clock()
        let jar = jar(clock: clock)
        jar.store(["root=0; Path=/"], from: url("http://example.com/"))
        clock.advance(1)
        jar.store(["api=1; Path=/api", "deep=2"], from: url("http://example.com/api/v1/list"))
        clock.advance(1)
        jar.store(["bad=3; Path=relative"], from: url("http://example.com/api/v1/list"))
        #expect(jar.cookieHeader(for: url("http://example.com/api/v1/x")) == "deep=2; bad=3; api=1; root=0")
        #expect(jar.cookieHeader(for: url("http://example.com/api")) == "api=1; root=0")
        #expect(jar.cookieHeader(for: url("http://example.com/apix")) == "root=0")
        #expect(jar.cookieHeader(for: url("http://example.com/")) == "root=0")
    }

    @Test func maxAgeWinsOverExpiresAndZeroDeletes() {
        let clock = Clock()
        let jar = jar(clock: clock)
        let origin = url("http://example.com/")
        jar.store(
            [
                "a=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
                "b=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Max-Age=0",
            ],
            from: origin)
        #expect(jar.cookieHeader(for: origin) == "a=1")
        clock.advance(61)
        #expect(jar.cookieHeader(for: origin) == nil)
        jar.store(["c=3; Max-Age=3600"], from: origin)
        jar.store(["c=gone; Max-Age=-1"], from: origin)
        #expect(jar.cookieHeader(for: origin) == nil)
        jar.store(["d=4; Expires=Wed, 21-Oct-99 07:28:00 GMT"], from: origin)  // 1999: already past
        #expect(jar.cookieHeader(for: origin) == nil)
        jar.store(["e=5; Max-Age=999999999"], from: origin)
        let expires = jar.allCookies.first?.expires
        #expect(expires == clock.now.value.addingTimeInterval(400 * 86_400), "capped at 400 days")
    }

    @Test func oversizedCookiesAreIgnoredAndTheFieldIsBounded() {
        let jar = jar()
        let origin = url("http://example.com/")
        jar.store(["big=" + String(repeating: "x", count: 90_000)], from: origin)
        jar.store(["n=" + String(repeating: "x", count: 4_095)], from: origin)  // 4,096 bytes: allowed
        jar.store(["m=" + String(repeating: "x", count: 4_096)], from: origin)  // 4,097 bytes
        #expect(jar.allCookies.map(\.name) == ["n"])
        let small = self.jar(CookieJarLimits(headerBytes: 10))
        small.store(["a=12345", "b=1"], from: origin)
        #expect(small.cookieHeader(for: origin) == "a=12345", "b would make the field 12 bytes")
    }

    @Test func aDomainKeepsAtMostItsLimitEvictingTheLeastRecentlyUsed() {
        let clock = Clock()
        let jar = jar(CookieJarLimits(cookiesPerDomain: 3, cookies: 5), clock: clock)
        let origin = url("http://example.com/")
        for index in 0..<3 {
            jar.store(["c\(index)=\(index)"], from: origin)
            clock.advance(1)
        }
        _ = jar.cookieHeader(for: origin)  // all three used now; c0 is the oldest by creation only
        clock.advance(1)
        jar.store(["c3=3"], from: origin)
        #expect(jar.allCookies.count == 3)
        for host in ["a.test", "b.test", "c.test"] {
            clock.advance(1)
            jar.store(["x=1"], from: url("http://\(host)/"))
        }
        #expect(jar.allCookies.count == 5)
    }

    @Test func theSecureAndHostPrefixesAreEnforcedInAnyCase() {
        let jar = jar()
        let origin = url("https://example.com/app/page")
        jar.store(
            [
                "__Secure-a=1", "__Host-b=2; Secure", "__host-c=3; Secure; Path=/; Domain=example.com",
                "__HOST-d=4; Secure; Path=/", "__secure-e=5; Secure",
                // A combining mark after the prefix's hyphen joins it into one Character; the bytes still match.
                "__Host-\u{301}f=6; Secure", "__Secure-\u{301}g=7",
            ], from: origin)
        #expect(jar.allCookies.map(\.name).sorted() == ["__HOST-d", "__secure-e"])
    }

    @Test func controlCharactersAndNamelessFieldsSetNothing() {
        let jar = jar()
        jar.store(["a=1\u{7}", "b=2\r\nX-Injected: 1", "justavalue", "=empty"], from: url("http://example.com/"))
        #expect(jar.allCookies.isEmpty)
    }

    @Test func anInsecureOriginCannotShadowASecureCookie() {
        let jar = jar()
        jar.store(["id=good; Secure; Path=/"], from: url("https://example.com/"))
        jar.store(["id=evil; Path=/"], from: url("http://example.com/"))
        #expect(jar.cookieHeader(for: url("https://example.com/")) == "id=good")
        #expect(jar.cookieHeader(for: url("http://example.com/")) == nil)
    }

    @Test func cookieDatesFollowTheRFC6265Algorithm() {
        func date(_ text: String) -> TimeInterval? { CookieDate.parse(Substring(text))?.timeIntervalSince1970 }
        #expect(date("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(date("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(date("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(date("Wed, 30 Feb 2022 00:00:00 GMT") == nil)
        #expect(date("Wed, 21 Oct 2015 25:00:00 GMT") == nil)
        #expect(date("Wed, 21 Oct 1500 07:28:00 GMT") == nil)
        #expect(date("tomorrow") == nil)
    }

    @Test func joinedSetCookieFieldsSplitOutsideExpiresDates() {
        #expect(
            SetCookieFields.split("a=1; Path=/, b=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT, c=3")
                == ["a=1; Path=/", "b=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "c=3"])
        #expect(SetCookieFields.split("single=1") == ["single=1"])
    }
}
