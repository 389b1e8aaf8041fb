#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking
@testable import GirdersHTTPCache
import GirdersTestServers

/// CachingTransport's request policies, RFC 5861's stale responses, invalidation (RFC 9111, section 4.4) and what a
/// private cache keeps apart.
struct CachePoliciesTests {
    @Test func reloadAsksTheServerDespiteAFreshStoredResponse() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=60"), ("ETag", #""a""#)], body: "one"),
            .init(200, [("Cache-Control", "max-age=60")], body: "two"))
        _ = try await cache.get()
        let reloaded = try await cache.get(policy: .reload)
        #expect(CacheHarness.text(reloaded) == "two")
        let asked = try await cache.asked()
        #expect(asked.count == 2)
        #expect(asked.last?.headers["if-none-match"] == nil)  // unconditional
        #expect(CacheHarness.text(try await cache.get()) == "two")  // and stored
    }

    @Test func cacheElseNetworkServesAStaleResponseWithoutAsking() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "no-cache, must-revalidate")], body: "x"))
        _ = try await cache.get(policy: .cacheElseNetwork)  // nothing stored: the network
        cache.clock.advance(3600)
        #expect(try await cache.get(policy: .cacheElseNetwork).cacheUse == .stored(age: 3600, isStale: true))
        #expect(try await cache.asked().count == 1)
    }

    @Test func cacheOnlyIsOfflineAndA504WhenNothingIsStored() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("ETag", #""a""#)], body: "x"))
        let error = await responseError { _ = try await cache.get(policy: .cacheOnly) }
        #expect(error?.response?.statusCode == 504)
        #expect(error?.response?.cacheUse == .notStored)
        #expect(try await cache.asked().isEmpty)
        _ = try await cache.get()
        cache.clock.advance(86_400)
        #expect(try await cache.get(policy: .cacheOnly).cacheUse == .stored(age: 86_400, isStale: true))
        #expect(try await cache.asked().count == 1)
    }

    @Test func staleWhileRevalidateAnswersAtOnceAndRefreshesTheStoreBehind_RFC5861_3() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=1, stale-while-revalidate=60"), ("ETag", #""a""#)], body: "x"),
            .init(304, [("Cache-Control", "max-age=100")]))
        _ = try await cache.get()
        cache.clock.advance(10)
        #expect(try await cache.get().cacheUse == .stored(age: 10, isStale: true))
        try await waitUntil(asking: { (try? await cache.asked().count) == 2 })
        try await waitUntil { cache.cache.revalidationsInFlight == 0 }
        #expect(try await cache.asked().last?.headers["if-none-match"] == #""a""#)
        // The background revalidation's max-age=100 governs now.
        #expect(try await cache.get().cacheUse == .stored(age: 0, isStale: false))
        #expect(try await cache.asked().count == 2)
    }

    @Test func staleWhileRevalidateEndsWithItsWindow_RFC5861_3() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=1, stale-while-revalidate=5"), ("ETag", #""a""#)], body: "x"),
            .init(304))
        _ = try await cache.get()
        cache.clock.advance(60)
        #expect(try await cache.get().cacheUse == .revalidated)
    }

    @Test(arguments: [CacheOrigin.Answer(503, body: "down"), CacheOrigin.Answer.drop])
    func staleIfErrorStandsInForAFailingServer_RFC5861_4(_ failure: CacheOrigin.Answer) async throws {
        let cache = try CacheHarness()
        try await cache.origin.script(
            cache.name, [.init(200, [("Cache-Control", "max-age=1, stale-if-error=600")], body: "last good"), failure])
        _ = try await cache.get()
        cache.clock.advance(100)
        let served = try await cache.get()
        #expect(CacheHarness.text(served) == "last good")
        #expect(served.cacheUse == .stored(age: 100, isStale: true))
        cache.clock.advance(1000)  // past the window: the failure comes through
        #expect(await responseError { _ = try await cache.get() } != nil)
    }

    @Test func staleIfErrorNeverOverridesMustRevalidate_RFC9111_4_2_4() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=1, stale-if-error=600, must-revalidate")], body: "x"),
            .init(503, body: "down"))
        _ = try await cache.get()
        cache.clock.advance(100)
        let error = await responseError { _ = try await cache.get() }
        #expect(error?.response?.statusCode == 503)
    }

    @Test func aSuccessfulUnsafeMethodInvalidatesItsURL_RFC9111_4_4() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=600")], body: "x"))
        _ = try await cache.get()
        #expect(try await cache.get().cacheUse != nil)
        _ = try await cache.client.perform(
            Request(MutableRequest(method: .post, url: cache.url) |> withTextBody("change")))
        #expect(try await cache.get().cacheUse == nil)
    }

    @Test func aFailedUnsafeMethodInvalidatesNothing_RFC9111_4_4() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=600")], body: "x"), .init(500, body: "no"))
        _ = try await cache.get()
        _ = await responseError {
            _ = try await cache.client.perform(Request(MutableRequest(method: .delete, url: cache.url)))
        }
        #expect(try await cache.get().cacheUse != nil)
    }

    @Test func locationOnTheSameOriginIsInvalidatedAndAnotherOriginsIsNot_RFC9111_4_4() async throws {
        let cache = try CacheHarness()
        let sameOrigin = cache.name + "-same"
        let otherOrigin = cache.name + "-other"
        try await cache.origin.script(sameOrigin, [.init(200, [("Cache-Control", "max-age=600")], body: "a")])
        try await cache.origin.script(otherOrigin, [.init(200, [("Cache-Control", "max-age=600")], body: "b")])
        let other = try #require(URL(string: "http://localhost:\(cache.origin.port)/o/\(otherOrigin)"))
        _ = try await cache.get(url: cache.origin.url(sameOrigin))
        _ = try await cache.get(url: other)
        try await cache.script(
            .init(201, [("Location", "/o/\(sameOrigin)"), ("Content-Location", other.absoluteString)], body: ""))
        _ = try await cache.client.perform(
            Request(MutableRequest(method: .post, url: cache.url) |> withTextBody("new")))
        #expect(try await cache.get(url: cache.origin.url(sameOrigin)).cacheUse == nil)
        #expect(try await cache.get(url: other).cacheUse != nil)
    }

    @Test func oneUsersStoredResponseNeverAnswersAnother() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "private, max-age=600")], body: "alice's"))
        _ = try await cache.get(["Authorization": "Bearer alice"])
        #expect(try await cache.get(["Authorization": "Bearer alice"]).cacheUse != nil)
        #expect(try await cache.get(["Authorization": "Bearer bob"]).cacheUse == nil)
        #expect(try await cache.get(["Cookie": "session=bob"]).cacheUse == nil)
        #expect(try await cache.get().cacheUse == nil)
    }

    @Test func setCookieIsNotStoredSoAHitSetsNoCookie() async throws {
        let jar = RFC6265CookieJar()
        let cache = try CacheHarness(cookies: jar)
        try await cache.script(.init(200, [("Cache-Control", "max-age=600"), ("Set-Cookie", "a=1")]))
        _ = try await cache.get()
        jar.removeAll()
        let hit = try await cache.get()
        #expect(hit.cacheUse != nil)
        #expect(hit.headers["Set-Cookie"] == nil)
        #expect(jar.cookies(for: cache.url).isEmpty)
    }

    /// RFC 6265 section 3: a user agent processes `Set-Cookie` on every response, so a `304` that revalidates a
    /// stored response sets its cookie in the caller's jar (before, the 304's fields stopped in the cache); the cookie
    /// is still never stored with the response.
    @Test func aSetCookieOnARevalidating304ReachesTheJar() async throws {
        let jar = RFC6265CookieJar()
        let cache = try CacheHarness(cookies: jar)
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=0"), ("ETag", #""a""#)], body: "x"),
            .init(304, [("ETag", #""a""#), ("Set-Cookie", "renewed=2; Path=/")]))
        _ = try await cache.get()
        let revalidated = try await cache.get()
        #expect(revalidated.cacheUse == .revalidated)
        #expect(jar.cookies(for: cache.url).map(\.name) == ["renewed"])
        jar.removeAll()
        cache.clock.advance(1)
        try await cache.script(.init(304, [("ETag", #""a""#)]))
        _ = try await cache.get()
        #expect(jar.cookies(for: cache.url).isEmpty, "the cookie was not stored with the response")
    }

    /// RFC 9111 section 3.1 names the fields a cache does not store; `Set-Cookie2` is not one of them
    /// (cache-tests' `headers-store-Set-Cookie2`).
    @Test func setCookie2IsStoredLikeAnyOtherField() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=600"), ("Set-Cookie2", "a=1")], body: "x"))
        _ = try await cache.get()
        let hit = try await cache.get()
        #expect(hit.cacheUse != nil)
        #expect(hit.headers["Set-Cookie2"] == "a=1")
    }

    #if os(Linux)
    /// A coding Girders does not know is stored and served as it came, `Content-Encoding` kept (cache-tests'
    /// `headers-store-Content-Encoding`); before, the request failed. (CurlTransport: FoundationNetworking on Linux
    /// fails such a body itself, see ContentCodingTests.)
    @Test func aResponseInAnUnknownCodingIsStoredAndServedAsItCame() async throws {
        let cache = try CacheHarness(.curl)
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=600"), ("Content-Encoding", "x-girders-test")], body: "coded"))
        let first = try await cache.get()
        let hit = try await cache.get()
        #expect(CacheHarness.text(first) == "coded" && CacheHarness.text(hit) == "coded")
        #expect(hit.cacheUse != nil)
        #expect(hit.headers["Content-Encoding"] == "x-girders-test")
    }
    #endif

    @Test func aRequestWithValidatorsOfItsOwnPassesThrough() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=600"), ("ETag", #""a""#)], body: "x"), .init(304))
        _ = try await cache.get()
        let error = await responseError { _ = try await cache.get(["If-None-Match": #""a""#]) }
        #expect(error?.response?.statusCode == 304)  // the app's own revalidation gets the server's 304
        #expect(try await cache.asked().count == 2)
    }

    @Test func cachedThenFreshYieldsTheStoredResponseAndThenTheServers() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=600"), ("ETag", #""a""#)], body: "stored"),
            .init(200, [("ETag", #""b""#)], body: "fresh"))
        var bodies: [String] = []
        var uses: [CacheUse?] = []
        for try await response in cache.client.cachedThenFresh(Request(URL: cache.url, method: .get)) {
            bodies.append(CacheHarness.text(response))
            uses.append(response.cacheUse)
        }
        #expect(bodies == ["stored"])  // nothing stored yet: the server's answer alone
        cache.clock.advance(5)
        bodies = []
        uses = []
        for try await response in cache.client.cachedThenFresh(Request(URL: cache.url, method: .get)) {
            bodies.append(CacheHarness.text(response))
            uses.append(response.cacheUse)
        }
        #expect(bodies == ["stored", "fresh"])
        #expect(uses == [.stored(age: 5, isStale: false), nil])
        #expect(try await cache.asked().last?.headers["if-none-match"] == #""a""#)
    }

    @Test func aStoreOnDiskAnswersTheNextProcessWhileOffline() async throws {
        let folder = try temporaryFolder()
        let cache = try CacheHarness(store: MemoryCacheStore())
        try await cache.script(.init(200, [("Cache-Control", "max-age=60")], body: "from yesterday"))
        let online = HTTPClient(
            transport: CachingTransport(TransportKind.underTest.transport(), store: try FileCacheStore(folder: folder)),
            cookieJar: nil)
        _ = try await online.perform(Request(URL: cache.url, method: .get))
        // A new client (as after a restart) with no network: the origin's port refuses connections.
        let refused = try #require(URL(string: "http://127.0.0.1:\(try LoopbackServer.refusedPort())/"))
        let offline = HTTPClient(
            transport: CachingTransport(TransportKind.underTest.transport(), store: try FileCacheStore(folder: folder)),
            cookieJar: nil)
        let stored = try await offline.perform(
            Request(MutableRequest(url: cache.url) |> withCachePolicy(.cacheOnly)))
        #expect(CacheHarness.text(stored) == "from yesterday")
        #expect(stored.cacheUse != nil)
        let error = await responseError {
            _ = try await offline.perform(Request(MutableRequest(url: refused) |> withCachePolicy(.cacheElseNetwork)))
        }
        #expect(error?.kind == .cannotConnect)
    }
}
#endif

#if os(macOS) || os(Linux)
/// Streamed responses (HTTPClient.stream, and the OpenAPI transport on it) through CachingTransport.
struct CachedStreamTests {
    func streamed(_ cache: CacheHarness) async throws -> (HTTPResponse, Data) {
        let streamed = try await cache.client.stream(Request(URL: cache.url, method: .get))
        var body = Data()
        for try await chunk in streamed.body { body.append(chunk) }
        return (streamed.head, body)
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamedResponseIsStoredAndTheNextStreamIsAFreshHit(_ kind: TransportKind) async throws {
        let cache = try CacheHarness(kind)
        try await cache.script(.init(200, [("Cache-Control", "max-age=60")], body: "streamed once"))
        let (first, firstBody) = try await streamed(cache)
        #expect(first.cacheUse == nil && firstBody == Data("streamed once".utf8))
        cache.clock.advance(3)
        let (second, secondBody) = try await streamed(cache)
        #expect(second.cacheUse == .stored(age: 3, isStale: false))
        #expect(secondBody == Data("streamed once".utf8))
        #expect(try await cache.asked().count == 1)
    }

    @Test func aStaleStreamedResponseIsRevalidatedAndStreamsTheStoredBody() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("ETag", #""s""#)], body: "kept body"), .init(304))
        _ = try await streamed(cache)
        let (head, body) = try await streamed(cache)
        #expect(head.cacheUse == .revalidated)
        #expect(body == Data("kept body".utf8))
    }

    @Test func aStreamedBodyLargerThanTheBoundPassesThroughAndIsNotStored() async throws {
        let cache = try CacheHarness()
        let large = String(repeating: "z", count: CachingTransport.maximumStreamedBodyBytes + 1)
        try await cache.script(.init(200, [("Cache-Control", "max-age=60")], body: large))
        let (_, body) = try await streamed(cache)
        #expect(body.count == large.utf8.count)
        #expect(cache.store.count == 0)
    }
}
#endif
