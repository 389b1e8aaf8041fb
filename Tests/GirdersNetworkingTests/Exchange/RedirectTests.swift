#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// Redirects against the loopback server, within one origin and across 127.0.0.1 and localhost.
struct RedirectTests {
    let server: LoopbackServer
    let client = makeClient()

    init() throws {
        server = try LoopbackServer.get()
    }

    func redirect(_ status: Int, to target: URL) -> URL {
        server.url("/redirect/\(status)?to=\(QueryText.encode(target.absoluteString))")
    }

    func echo(_ request: Request) async throws -> Response<Echo> {
        try await client.executeRequest(request: request)
    }

    @Test(arguments: [307, 308])
    func temporaryAndPermanentRedirectsKeepTheMethodAndTheBody(status: Int) async throws {
        let request = Request(
            MutableRequest(method: .post, url: redirect(status, to: server.url("/echo?after=1")))
                |> withJSONBody(["keep": "me"]))
        let response = try await echo(request)
        #expect(response.bodyObject?.method == "POST")
        #expect(response.bodyObject?.body == #"{"keep":"me"}"#)
        #expect(response.bodyObject?.header("content-type") == "application/json")
        #expect(response.url == server.url("/echo?after=1"))
    }

    @Test(arguments: [301, 302, 303])
    func otherRedirectsOfAPostBecomeAGetWithoutBody(status: Int) async throws {
        let request = Request(
            MutableRequest(method: .post, url: redirect(status, to: server.url("/echo"))) |> withTextBody("dropped"))
        let response = try await echo(request)
        #expect(response.bodyObject?.method == "GET")
        #expect(response.bodyObject?.body == "")
        #expect(response.bodyObject?.header("content-type") == nil)
    }

    @Test func aRedirectWithinTheOriginKeepsCredentials() async throws {
        let request = Request(
            MutableRequest(url: redirect(302, to: server.url("/echo"))) |> withBearerToken("secret")
                |> withHeader("Cookie", "a=1"))
        let response = try await echo(request)
        #expect(response.bodyObject?.header("authorization") == "Bearer secret")
        #expect(response.bodyObject?.header("cookie") == "a=1")
    }

    @Test func aRedirectToAnotherHostDropsAuthorizationAndCookie() async throws {
        let request = Request(
            MutableRequest(url: redirect(307, to: server.url("/echo", host: "localhost"))) |> withBearerToken("secret")
                |> withHeader("Cookie", "a=1") |> withHeader("X-Kept", "yes"))
        let response = try await echo(request)
        #expect(response.bodyObject?.header("host") == "localhost:\(server.port)")
        #expect(response.bodyObject?.header("authorization") == nil)
        #expect(response.bodyObject?.header("cookie") == nil)
        #expect(response.bodyObject?.header("x-kept") == "yes")
    }

    /// `Location: HTTP://...` is http (schemes are case-insensitive): followed the same way on every transport.
    @Test(arguments: TransportKind.allCases, ["HTTP", "Http", "hTtP"])
    func aLocationWhoseSchemeIsInUpperCaseIsFollowedOnEveryTransport(_ kind: TransportKind, scheme: String) async throws
    {
        let target = try #require(URL(string: "\(scheme)://127.0.0.1:\(server.port)/echo?upper=1"))
        let response: Response<Echo> = try await kind.client().executeRequest(
            request: Request(URL: redirect(302, to: target), method: .get))
        #expect(response.statusCode == 200)
        #expect(response.bodyObject?.path == "/echo")
        #expect(response.url?.scheme == "http")
    }

    @Test func relativeLocationsAreResolvedAgainstTheRedirectingURL() async throws {
        let response = try await echo(Request(URL: server.url("/redirect/302?to=/echo%3Frel%3D1"), method: .get))
        #expect(response.bodyObject?.query == "rel=1")
    }

    @Test func aRedirectLoopStopsAtTheLimit() async throws {
        let loop = server.url("/redirect/302?to=/redirect/302%3Fto%3D/echo")
        let limited = makeClient(redirects: .follow(maximumRedirects: 1))
        let error = await responseError {
            let _: Response<Data> = try await limited.executeRequest(request: Request(URL: loop, method: .get))
        }
        #expect(error == .tooManyRedirects(url: loop, limit: 1))
        let enough: Response<Echo> = try await makeClient(redirects: .follow(maximumRedirects: 2)).executeRequest(
            request: Request(URL: loop, method: .get))
        #expect(enough.statusCode == 200)
    }

    @Test func notFollowingReturnsTheRedirectAsAnUnacceptableStatusWithItsLocation() async throws {
        let client = makeClient(redirects: .doNotFollow)
        let error = await responseError {
            let _: Response<Data> = try await client.executeRequest(
                request: Request(URL: redirect(302, to: server.url("/echo")), method: .get))
        }
        #expect(error?.statusCode == 302)
        #expect(error?.response?.headers["location"] == server.url("/echo").absoluteString)
        let accepting = makeClient(
            validation: ResponseValidation(acceptableStatusCodes: [302]), redirects: .doNotFollow)
        let response: Response<Data> = try await accepting.executeRequest(
            request: Request(URL: redirect(302, to: server.url("/echo")), method: .get))
        #expect(response.statusCode == 302)
    }
}

/// Percent-encoding for building test URLs.
enum QueryText {
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
#endif
