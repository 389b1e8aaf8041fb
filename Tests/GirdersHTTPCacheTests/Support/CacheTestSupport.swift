#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking
@testable import GirdersHTTPCache
import GirdersTestServers

/// A client over a ``CachingTransport`` with a test clock, on one of the transports, and the origin it asks.
struct CacheHarness {
    let origin: CacheOrigin
    let clock = TestClock()
    let store: MemoryCacheStore
    let cache: CachingTransport
    let client: HTTPClient
    /// A resource name of this test's own.
    let name = "r" + UUID().uuidString.prefix(8).lowercased()

    init(
        _ kind: TransportKind = .underTest, store: MemoryCacheStore = MemoryCacheStore(),
        interceptors: [any RequestInterceptor] = [], monitors: [any EventMonitor] = [],
        cookies jar: (any CookieJar)? = nil
    ) throws {
        origin = try CacheOrigin.get()
        self.store = store
        let clock = clock
        cache = CachingTransport(kind.transport(), store: store, defaultPolicy: .useProtocol) {
            clock.date
        }
        client = HTTPClient(
            transport: cache, interceptors: interceptors, monitors: monitors, cookieJar: jar ?? RFC6265CookieJar())
    }

    var url: URL { origin.url(name) }

    /// Scripts the origin's answers for this test's resource.
    func script(_ answers: CacheOrigin.Answer...) async throws {
        try await origin.script(name, answers)
    }

    /// A GET of this test's resource, with `headers` and `policy`.
    func get(
        _ headers: [String: String] = [:], policy: CachePolicy? = nil, url: URL? = nil
    ) async throws(ResponseError) -> HTTPResponse {
        var request = MutableRequest(method: .get, url: url ?? self.url)
        for (name, value) in headers { request.headers[name] = value }
        if let policy { request.cachePolicy = policy }
        return try await client.perform(Request(request))
    }

    /// The requests the origin received for this test's resource.
    func asked() async throws -> [CacheOrigin.Logged] {
        try await origin.log(name)
    }

    /// The body as text.
    static func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }
}
#endif
