#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersLog
import Testing

@testable import GirdersNetworking
@testable import GirdersHTTPCache
import GirdersTestServers

/// Monitors and LoggingMonitor say when a response came from the cache.
struct CacheObservationTests {
    /// The metrics of each finished exchange, in order.
    final class CacheUses: EventMonitor {
        let uses = LockedList<CacheUse?>()

        func requestDidCollectMetrics(_ request: Request, attempt: Int, metrics: RequestMetrics) {
            uses.append(metrics.cacheUse)
        }
    }

    @Test func metricsSayWhetherTheStoreOrTheServerAnswered() async throws {
        let monitor = CacheUses()
        let cache = try CacheHarness(monitors: [monitor])
        try await cache.script(
            .init(200, [("Cache-Control", "max-age=10"), ("ETag", #""a""#)], body: "x"),
            .init(304, [("Cache-Control", "max-age=10")]))
        _ = try await cache.get()
        cache.clock.advance(5)
        _ = try await cache.get()
        cache.clock.advance(20)
        _ = try await cache.get()
        // The first exchange's metrics come only from a transport that measures (not FoundationNetworking's).
        #expect(monitor.uses.values.compactMap { $0 } == [.stored(age: 5, isStale: false), .revalidated])
        #expect(monitor.uses.values.last == .revalidated)
    }

    @Test func theLogLineSaysFromTheCacheWithTheAge() async throws {
        let recorder = LogRecorder()
        let cache = try CacheHarness(monitors: [LoggingMonitor(logger: Logger(label: "http", destination: recorder))])
        try await cache.script(.init(200, [("Cache-Control", "max-age=60")], body: "x"))
        _ = try await cache.get()
        cache.clock.advance(7)
        _ = try await cache.get()
        _ = await responseError {
            _ = try await cache.get(policy: .cacheOnly, url: cache.origin.url(cache.name + "-none"))
        }
        let lines = recorder.records.map { $0.message.text(revealingPrivate: true) }
        #expect(lines.contains { $0.hasPrefix("← 200 GET") && $0.hasSuffix("1 bytes, from the cache (age 7 s)") })
        #expect(lines.contains { $0.hasPrefix("✗ 504 GET") && $0.hasSuffix(", not in the cache") })
    }
}
#endif
