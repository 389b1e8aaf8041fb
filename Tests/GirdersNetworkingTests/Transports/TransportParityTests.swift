#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Behaviours that FoundationNetworking gets wrong on Linux and Girders makes the same on every transport.
struct TransportParityTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    /// Sends `path` with `timeout`: whether it succeeded, and when it did not, the error and the seconds it took.
    /// A busy machine may answer late, so the tests below accept a timeout, but never one that came too early.
    private func attempt(_ client: HTTPClient, _ path: String, timeout: Double) async -> (ResponseError?, Double) {
        let started = ContinuousClock.now
        let error = await responseError {
            let _: Response<Data> = try await client.executeRequest(
                request: Request(MutableRequest(url: server.url(path)) |> withTimeout(timeout)))
        }
        return (error, (ContinuousClock.now - started) / .seconds(1))
    }

    @Test(arguments: TransportKind.allCases)
    func aTimeoutBelowOneSecondIsNotCutToNothing(_ kind: TransportKind) async throws {
        let client = kind.client()
        // A 100 ms answer within a 0.5 s timeout succeeds (FoundationNetworking's own timer, cut to 0 s, would fail
        // it at once); if the machine is too busy to answer in time, the timeout still came no earlier than asked.
        let (quick, quickSeconds) = await attempt(client, "/delay?ms=100", timeout: 0.5)
        #expect(quick == nil || (quick?.kind == .timedOut && quickSeconds >= 0.45), "\(String(describing: quick))")
        // A 3 s silence fails with timedOut instead of succeeding.
        let (error, _) = await attempt(client, "/delay?ms=3000", timeout: 0.5)
        #expect(error?.kind == .timedOut, "\(String(describing: error))")
    }

    @Test(arguments: TransportKind.allCases)
    func aTimeoutOfOnePointEightSecondsIsNotCutToOne(_ kind: TransportKind) async throws {
        let client = kind.client()
        // 1.1 s of silence: beyond the 1 s FoundationNetworking would truncate 1.8 s to (the server cannot answer
        // before its sleep ends). It succeeds, or, on a machine too busy to answer within 1.8 s, times out no
        // earlier than 1.8 s: a timer cut to 1 s fails both ways.
        let (error, seconds) = await attempt(client, "/delay?ms=1100", timeout: 1.8)
        #expect(
            error == nil || (error?.kind == .timedOut && seconds >= 1.75),
            "\(String(describing: error)) after \(seconds) s")
    }

    @Test(arguments: TransportKind.allCases)
    func anExplicitCookieHeaderWinsOverStoredCookies(_ kind: TransportKind) async throws {
        let jar = RFC6265CookieJar()
        let url = server.url("/echo")
        jar.store(["session=stored; Path=/"], from: url)
        let client = kind.client(cookies: jar)
        let plain: Response<Echo> = try await client.executeRequest(request: Request(URL: url, method: .get))
        #expect(plain.bodyObject?.header("Cookie") == "session=stored")
        let explicit: Response<Echo> = try await client.executeRequest(
            request: Request(MutableRequest(url: url) |> withHeader("Cookie", "session=explicit")))
        #expect(explicit.bodyObject?.headers["cookie"] == ["session=explicit"])
    }

    @Test(arguments: TransportKind.allCases)
    func repeatedResponseCookiesAreAllStored(_ kind: TransportKind) async throws {
        let jar = RFC6265CookieJar()
        let client = kind.client(cookies: jar)
        let response: Response<Data> = try await client.executeRequest(
            request: Request(URL: server.url("/repeated"), method: .get))
        #expect(response.statusCode == 200)
        let names = jar.cookies(for: server.url("/")).map(\.name).sorted()
        #expect(names == ["first", "second"])
        #if os(Linux)
        if kind == .curl {
            // The fields parsed to store the cookies are the ones the response carries (FoundationNetworking joins
            // repeated fields, so only CurlTransport keeps both).
            #expect(response.headers.values(for: "Set-Cookie").count == 2)
        }
        #endif
    }

    @Test func aConfigurationsCookieSettingsGiveTheClientItsJar() async throws {
        // The client keeps cookies (the session's own handling is off): `CookieJars.jar(for:)` gives it the jar a
        // configuration describes, none for one that accepts no cookies, its storage for one that does.
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        func storedNames() -> [String] { (storage.cookies(for: server.url("/")) ?? []).map(\.name).sorted() }
        let refusing = URLSessionConfiguration.ephemeral
        refusing.httpCookieStorage = storage
        refusing.httpCookieAcceptPolicy = .never
        let request = Request(URL: server.url("/repeated"), method: .get)
        let _: Response<Data> = try await HTTPClient(
            transport: URLSessionTransport(configuration: refusing), cookieJar: CookieJars.jar(for: refusing)
        )
        .executeRequest(request: request)
        #expect(storedNames().isEmpty)
        let accepting = URLSessionConfiguration.ephemeral
        accepting.httpCookieStorage = storage
        accepting.httpCookieAcceptPolicy = .always
        let _: Response<Data> = try await HTTPClient(
            transport: URLSessionTransport(configuration: accepting), cookieJar: CookieJars.jar(for: accepting)
        )
        .executeRequest(request: request)
        #expect(storedNames() == ["first", "second"])
        #expect(refusing.httpCookieAcceptPolicy == .never, "the caller's configuration is not changed")
    }

    @Test(arguments: TransportKind.allCases)
    func gzipBodiesArriveDecoded(_ kind: TransportKind) async throws {
        struct Flag: Decodable { let compressed: Bool }
        let response: Response<Flag> = try await kind.client().executeRequest(
            request: Request(URL: server.url("/gzip"), method: .get))
        #expect(response.bodyObject?.compressed == true)
    }
}
#endif
