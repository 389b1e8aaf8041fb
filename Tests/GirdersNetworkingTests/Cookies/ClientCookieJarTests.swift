#if os(macOS) || os(Linux)  // starts a Python server
import Foundation
@testable import GirdersNetworking
import GirdersTestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cookie jar is the client's: a decorator between the client and the transport forwards nothing for it, and
/// ``withSessionCookie(_:)`` reads the jar of the client that sends the request, not ``CookieJars/shared``.
struct ClientCookieJarTests {
    /// A decorator as an app writes one: it passes each exchange on and says nothing about cookies.
    struct Counting: HTTPTransport {
        let base: any HTTPTransport
        let sent = LockedList<String>()

        func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
            sent.append(request.url.path)
            try await base.send(request, to: sink)
        }
    }

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    func setting(_ fields: [String]) -> URL {
        var components = URLComponents(url: server.url("/set-cookie"), resolvingAgainstBaseURL: false)
        components?.queryItems = fields.map { URLQueryItem(name: "v", value: $0) }
        return components?.url ?? server.url("/set-cookie")
    }

    @Test(arguments: TransportKind.allCases)
    func cookiesSetThroughADecoratorComeBackOnTheNextRequest(_ kind: TransportKind) async throws {
        let jar = RFC6265CookieJar()
        let decorator = Counting(base: kind.transport())
        let client = kind.client(over: decorator, cookies: jar)
        let _: Response<Data> = try await client.executeRequest(
            request: Request(URL: setting(["through=decorator; Path=/"]), method: .get))
        #expect(jar.allCookies.map(\.name) == ["through"])
        let echo: Response<Echo> = try await client.executeRequest(
            request: Request(URL: server.url("/echo"), method: .get))
        #expect(echo.bodyObject?.headers["cookie"] == ["through=decorator"])
        #expect(decorator.sent.values == ["/set-cookie", "/echo"])
    }

    @Test(arguments: TransportKind.allCases)
    func theSessionCookieComesFromTheJarOfTheClientThatSendsIt(_ kind: TransportKind) async throws {
        let jar = RFC6265CookieJar()
        let url = server.url("/echo")
        jar.store(["XSRF-TOKEN=own-token; Path=/", "JSESSIONID=own-session; Path=/"], from: url)
        let echo: Response<Echo> = try await kind.client(cookies: jar).executeRequest(
            request: Request(MutableRequest(url: url) |> withSessionCookie))
        #expect(echo.bodyObject?.headers["x-xsrf-token"] == ["own-token"])
        #expect(echo.bodyObject?.headers["cookie"] == ["JSESSIONID=own-session"])
        #expect(!CookieJars.shared.cookies(for: url).contains { $0.value == "own-token" })
    }

    /// A session id in the jar that is no cookie value (a custom jar hands back anything) stops the request before
    /// it is sent, naming the jar, as an explicit one does.
    @Test func aJarsSessionIDThatIsNoCookieValueStopsTheRequest() async throws {
        struct Loose: CookieJar {
            func store(_ fields: [String], from url: URL) {}
            func cookieHeader(for url: URL) -> String? { nil }
            func cookies(for url: URL) -> [Cookie] {
                [Cookie(name: "JSESSIONID", value: "a; admin=1", domain: url.host ?? "", path: "/")]
            }
            func removeAll() {}
        }
        let error = await responseError {
            _ = try await TransportKind.underTest.client(cookies: Loose()).perform(
                Request(MutableRequest(url: server.url("/echo")) |> withSessionCookie))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(
            error?.reason.contains("the cookie jar's session cookie for 127.0.0.1") == true,
            "\(String(describing: error))")
    }

    /// The transport's session has no cookie handling, so a configuration's cookie settings say nothing any more:
    /// a configuration that asked for another jar than the shared one is said once, with what to pass instead.
    @Test func aConfigurationWhoseCookieSettingsNoLongerApplyIsNamed() throws {
        #expect(URLSessionTransport.ignoredCookieSettings(of: .default) == nil)
        #expect(URLSessionTransport.ignoredCookieSettings(of: .ephemeral)?.contains("storage of its own") == true)
        let off = URLSessionConfiguration.default
        off.httpCookieAcceptPolicy = .never
        #expect(URLSessionTransport.ignoredCookieSettings(of: off) == "turns cookies off")
    }

    /// GirdersSwift's `HTTPClient(urlSession:)` keeps the cookies where the session's configuration kept them: an
    /// ephemeral session's own storage, not the process's shared jar.
    @Test func girdersSwiftsSessionClientKeepsCookiesInTheSessionsStorage() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try #require(configuration.httpCookieStorage)
        let client = HTTPClient(urlSession: URLSession(configuration: configuration))
        #expect(client.cookieJar is SystemCookieJar)
        let _: Response<Data> = try await client.executeRequest(
            request: Request(URL: setting(["ephemeral=1; Path=/"]), method: .get))
        #expect(storage.cookies?.map(\.name) == ["ephemeral"])
        #expect(!CookieJars.shared.cookies(for: server.url("/echo")).contains { $0.name == "ephemeral" })
    }
}
#endif
