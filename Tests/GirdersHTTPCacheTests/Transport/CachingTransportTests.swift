#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking
@testable import GirdersHTTPCache
import GirdersTestServers

/// CachingTransport against an origin the tests script: each rule of RFC 9111 (and RFC 5861) named by its section.
struct CachingTransportTests {
    @Test(arguments: TransportKind.allCases)
    func aFreshResponseIsServedWithoutAskingTheServerWithItsAge_RFC9111_4_2(_ kind: TransportKind) async throws {
        let cache = try CacheHarness(kind)
        try await cache.script(.init(200, [("Cache-Control", "max-age=60")], body: "v1"))
        let first = try await cache.get()
        #expect(first.cacheUse == nil)
        cache.clock.advance(30)
        let second = try await cache.get()
        #expect(CacheHarness.text(second) == "v1")
        #expect(second.cacheUse == .stored(age: 30, isStale: false))
        #expect(second.headers["Age"] == "30")
        #expect(try await cache.asked().count == 1)
    }

    @Test(arguments: TransportKind.allCases)
    func aStaleResponseIsRevalidatedAndA304RefreshesItsFields_RFC9111_4_3_1_and_4_3_4(
        _ kind: TransportKind
    )
        async throws
    {
        let cache = try CacheHarness(kind)
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=10"), ("ETag", #""v1""#), ("X-Version", "1")], body: "body one"),
            .init(304, [("Cache-Control", "max-age=100"), ("ETag", #""v1""#), ("X-Version", "2")]))
        _ = try await cache.get()
        cache.clock.advance(20)
        let revalidated = try await cache.get()
        #expect(revalidated.statusCode == 200)
        #expect(revalidated.cacheUse == .revalidated)
        #expect(CacheHarness.text(revalidated) == "body one")
        #expect(revalidated.headers["X-Version"] == "2")
        let asked = try await cache.asked()
        #expect(asked.count == 2)
        #expect(asked.last?.headers["if-none-match"] == #""v1""#)
        // The 304's max-age=100 now governs: fresh again without asking.
        cache.clock.advance(50)
        #expect(try await cache.get().cacheUse == .stored(age: 50, isStale: false))
        #expect(try await cache.asked().count == 2)
    }

    @Test func lastModifiedIsSentBackAsIfModifiedSince_RFC9111_4_3_1() async throws {
        let cache = try CacheHarness()
        let modified = cache.clock.httpDate(-3600)
        try await cache.script(
            .init(200, [("Cache-Control", "no-cache"), ("Last-Modified", modified)], body: "x"), .init(304))
        _ = try await cache.get()
        #expect(try await cache.get().cacheUse == .revalidated)
        #expect(try await cache.asked().last?.headers["if-modified-since"] == modified)
    }

    @Test func aChangedResourceReplacesTheStoredOne_RFC9111_4_3_3() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("ETag", #""v1""#)], body: "one"),
            .init(200, [("ETag", #""v2""#), ("Cache-Control", "max-age=60")], body: "two"))
        _ = try await cache.get()
        let changed = try await cache.get()
        #expect(changed.cacheUse == nil)
        #expect(CacheHarness.text(changed) == "two")
        #expect(CacheHarness.text(try await cache.get()) == "two")
        #expect(try await cache.asked().count == 2)
    }

    @Test func aResponseThatSaysNoStoreIsNeverStored_RFC9111_5_2_2_5() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=60, no-store")], body: "secret"))
        _ = try await cache.get()
        _ = try await cache.get()
        #expect(try await cache.asked().count == 2)
        #expect(cache.store.count == 0)
    }

    @Test func aRequestThatSaysNoStoreLeavesNothingStored_RFC9111_5_2_1_5() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=60")], body: "x"))
        _ = try await cache.get(["Cache-Control": "no-store"])
        #expect(cache.store.count == 0)
    }

    @Test func aRequestThatSaysNoCacheValidatesEvenAFreshResponse_RFC9111_5_2_1_4() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=60"), ("ETag", #""a""#)], body: "x"), .init(304))
        _ = try await cache.get()
        #expect(try await cache.get(["Cache-Control": "no-cache"]).cacheUse == .revalidated)
        #expect(try await cache.asked().count == 2)
    }

    @Test func aResponseThatSaysNoCacheIsValidatedEveryTime_RFC9111_5_2_2_4() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "no-cache, max-age=60"), ("ETag", #""a""#)], body: "x"), .init(304))
        _ = try await cache.get()
        _ = try await cache.get()
        _ = try await cache.get()
        #expect(try await cache.asked().count == 3)
    }

    @Test func aRequestMaxAgeRefusesAnOlderResponse_RFC9111_5_2_1_1() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=600"), ("ETag", #""a""#)], body: "x"), .init(304))
        _ = try await cache.get()
        cache.clock.advance(30)
        #expect(try await cache.get(["Cache-Control": "max-age=60"]).cacheUse == .stored(age: 30, isStale: false))
        #expect(try await cache.get(["Cache-Control": "max-age=10"]).cacheUse == .revalidated)
    }

    @Test func maxStaleAcceptsAStaleResponseUpToItsBound_RFC9111_5_2_1_2() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=10"), ("ETag", #""a""#)], body: "x"), .init(304))
        _ = try await cache.get()
        cache.clock.advance(40)  // 30 s stale
        #expect(try await cache.get(["Cache-Control": "max-stale=60"]).cacheUse == .stored(age: 40, isStale: true))
        #expect(try await cache.get(["Cache-Control": "max-stale"]).cacheUse == .stored(age: 40, isStale: true))
        #expect(try await cache.get(["Cache-Control": "max-stale=20"]).cacheUse == .revalidated)
    }

    @Test func minFreshWantsAResponseFreshForThatLongStill_RFC9111_5_2_1_3() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=100"), ("ETag", #""a""#)], body: "x"), .init(304))
        _ = try await cache.get()
        cache.clock.advance(50)
        #expect(try await cache.get(["Cache-Control": "min-fresh=30"]).cacheUse == .stored(age: 50, isStale: false))
        #expect(try await cache.get(["Cache-Control": "min-fresh=60"]).cacheUse == .revalidated)
    }

    @Test func onlyIfCachedWithNothingStoredIsA504AndNothingIsSent_RFC9111_5_2_1_7() async throws {
        let cache = try CacheHarness(interceptors: [RetryPolicy(maximumAttempts: 3, baseDelay: 0, maximumDelay: 0)])
        try await cache.script(.init(200, [("Cache-Control", "max-age=60")], body: "x"))
        let error = await responseError { _ = try await cache.get(["Cache-Control": "only-if-cached"]) }
        guard case .gatewayTimeout(let response) = error else {
            Issue.record("expected a 504, got \(String(describing: error))")
            return
        }
        #expect(response.cacheUse == .notStored)
        #expect(try await cache.asked().isEmpty)  // and not retried either
    }

    @Test func mustRevalidateIsNeverServedStaleNotEvenWithMaxStale_RFC9111_5_2_2_2() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=10, must-revalidate"), ("ETag", #""a""#)], body: "x"), .init(304))
        _ = try await cache.get()
        cache.clock.advance(20)
        #expect(try await cache.get(["Cache-Control": "max-stale"]).cacheUse == .revalidated)
    }

    @Test func aRequestWhoseVaryFieldsDifferIsAMiss_RFC9111_4_1() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")], body: "x"))
        _ = try await cache.get(["Accept-Language": "fr"])
        #expect(try await cache.get(["Accept-Language": "fr"]).cacheUse != nil)
        #expect(try await cache.get(["Accept-Language": "de"]).cacheUse == nil)
        #expect(try await cache.asked().count == 2)
    }

    @Test func varyStarIsNeverServedFromTheStore_RFC9111_4_1() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Cache-Control", "max-age=60"), ("Vary", "*")], body: "x"))
        _ = try await cache.get()
        _ = try await cache.get()
        #expect(try await cache.asked().count == 2)
    }

    @Test func aHeuristicFreshnessComesFromLastModified_RFC9111_4_2_2() async throws {
        let cache = try CacheHarness()
        try await cache.script(
            .init(200, [("Date", cache.clock.httpDate()), ("Last-Modified", cache.clock.httpDate(-100))], body: "x"),
            .init(304))
        _ = try await cache.get()
        cache.clock.advance(5)  // fresh for 10 s
        #expect(try await cache.get().cacheUse == .stored(age: 5, isStale: false))
        cache.clock.advance(10)
        #expect(try await cache.get().cacheUse == .revalidated)
    }

    @Test func aStatusThatIsNotCacheableByDefaultNeedsAnExplicitFreshness_RFC9111_3() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(403, [("Last-Modified", cache.clock.httpDate(-1000))], body: "no"))
        _ = await responseError { _ = try await cache.get() }
        _ = await responseError { _ = try await cache.get() }
        #expect(try await cache.asked().count == 2)
    }

    @Test func aCached404IsServedAsA404_RFC9111_3() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(404, [("Cache-Control", "max-age=60")], body: "gone"))
        _ = await responseError { _ = try await cache.get() }
        let error = await responseError { _ = try await cache.get() }
        guard case .notFound(let response) = error else {
            Issue.record("expected a 404, got \(String(describing: error))")
            return
        }
        #expect(response.cacheUse == .stored(age: 0, isStale: false))
        #expect(try await cache.asked().count == 1)
    }

    @Test func expiresIsMeasuredFromTheOriginsDateNotFromTheLocalClock_RFC9111_4_2_1() async throws {
        let cache = try CacheHarness()
        // The origin's clock runs an hour ahead: its Expires is 60 s after its Date, not an hour from now here.
        try await cache.script(
            .init(
                200,
                [("Date", cache.clock.httpDate(3600)), ("Expires", cache.clock.httpDate(3660)), ("ETag", #""a""#)],
                body: "x"),
            .init(304))
        _ = try await cache.get()
        cache.clock.advance(30)
        #expect(try await cache.get().cacheUse == .stored(age: 30, isStale: false))
        cache.clock.advance(40)
        #expect(try await cache.get().cacheUse == .revalidated)
    }

    @Test func anInvalidExpiresMeansStale_RFC9111_5_3() async throws {
        let cache = try CacheHarness()
        try await cache.script(.init(200, [("Expires", "0"), ("ETag", #""a""#)], body: "x"), .init(304))
        _ = try await cache.get()
        #expect(try await cache.get().cacheUse == .revalidated)
    }
}
#endif
