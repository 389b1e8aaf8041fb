#if os(macOS) || os(Linux)  // starts a Python server
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// Both transports store and send cookies through one ``CookieJar`` by its rules, against a real server: what
/// FoundationNetworking's storage let through on Linux (an expired cookie, a foreign domain, a cookie for another
/// path, a 90 KB cookie replayed on every request) stays out of the next request.
struct CookieTransportTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    func setCookies(_ fields: [String], big: Int? = nil) -> URL {
        var components = URLComponents(url: server.url("/set-cookie"), resolvingAgainstBaseURL: false)
        components?.queryItems =
            fields.map { URLQueryItem(name: "v", value: $0) }
            + (big.map { [URLQueryItem(name: "big", value: "\($0)")] } ?? [])
        return components?.url ?? server.url("/set-cookie")
    }

    @Test(arguments: TransportKind.allCases)
    func aResponsesCookiesComeBackByTheRules(_ kind: TransportKind) async throws {
        let jar = RFC6265CookieJar()
        let client = kind.client(cookies: jar)
        let fields = [
            "echoed=1; Path=/echo", "elsewhere=2; Path=/other", "expired=3; Max-Age=0", "foreign=4; Domain=example.com",
            "__Host-prefixed=5; Path=/", "kept=6; Expires=Wed, 21 Oct 2099 07:28:00 GMT",
        ]
        let set: Response<Data> = try await client.executeRequest(
            request: Request(URL: setCookies(fields, big: 90_000), method: .get))
        #expect(set.statusCode == 200)
        #expect(jar.allCookies.map(\.name).sorted() == ["echoed", "elsewhere", "kept"])
        let echo: Response<Echo> = try await client.executeRequest(
            request: Request(URL: server.url("/echo"), method: .get))
        #expect(echo.bodyObject?.headers["cookie"] == ["echoed=1; kept=6"])
    }

    /// RFC 6265bis 5.6 ignores a cookie with a control character; the jar must see the field as the server sent it
    /// (the head's control characters are spaced for the app, which made `c\x01tl=1` a stored `c tl=1`). A
    /// `Max-Age` past `Int64` is the longest lifetime, not an expiry; `Domain=` naming the IP address that set it
    /// keeps the cookie host-only.
    @Test(arguments: TransportKind.allCases)
    func cookiesWithControlCharactersOverTheWireAreIgnoredAndOddAttributesReadByTheRules(
        _ kind: TransportKind
    ) async throws {
        let hostile = try HostileServer.get()
        let jar = RFC6265CookieJar()
        let response = try await kind.client(cookies: jar).perform(
            Request(URL: hostile.url("/cookies-raw"), method: .get))
        #expect(response.statusCode == 200)
        #expect(jar.allCookies.map(\.name).sorted() == ["huge", "ip", "ok"])
        let huge = jar.allCookies.first { $0.name == "huge" }
        let lifetime = (huge?.expires ?? .distantPast).timeIntervalSinceNow
        #expect(lifetime > CookieJarLimits().maximumLifetime - 3_600, "\(lifetime)")
        #expect(lifetime <= CookieJarLimits().maximumLifetime)
        let ip = jar.allCookies.first { $0.name == "ip" }
        #expect(ip?.isHostOnly == true)
        #expect(ip?.domain == "127.0.0.1")
    }

    @Test func bothTransportsShareOneJar() async throws {
        let jar = RFC6265CookieJar()
        let setter = TransportKind.allCases.first ?? .urlSession
        let reader = TransportKind.allCases.last ?? .urlSession
        let _: Response<Data> = try await setter.client(cookies: jar).executeRequest(
            request: Request(URL: setCookies(["shared=yes; Path=/"]), method: .get))
        let echo: Response<Echo> = try await reader.client(cookies: jar).executeRequest(
            request: Request(URL: server.url("/echo"), method: .get))
        #expect(echo.bodyObject?.headers["cookie"] == ["shared=yes"])
    }

    @Test(arguments: TransportKind.allCases)
    func aJarsCookieFieldWithALineBreakIsRefusedBeforeAnythingIsSent(_ kind: TransportKind) async throws {
        struct Injecting: CookieJar {
            func store(_ fields: [String], from url: URL) {}
            func cookieHeader(for url: URL) -> String? { "a=1\r\nX-Injected: yes" }
            func cookies(for url: URL) -> [Cookie] { [] }
            func removeAll() {}
        }
        let error = await responseError {
            let _: Response<Data> = try await kind.client(cookies: Injecting()).executeRequest(
                request: Request(URL: server.url("/echo"), method: .get))
        }
        #expect(error?.kind == .invalidRequest, "\(String(describing: error))")
    }
}
#endif
