#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

@testable import GirdersHTTPCache

/// `CachingTransport(defaultPolicy: .revalidate)` in place of the removed `RevalidatingTransport`: the stored
/// response is revalidated with its `ETag` or `Last-Modified` every time, and a `304` is answered from it (the
/// removed decorator's tests, kept against the loopback server's `/cached`).
struct RevalidationTests {
    struct Served: Decodable, Equatable { let name: String; let served: Int }

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    func revalidatingClient(_ store: MemoryCacheStore) -> HTTPClient {
        HTTPClient(
            transport: CachingTransport(
                URLSessionTransport(configuration: .default), store: store, defaultPolicy: .revalidate),
            cookieJar: nil)
    }

    @Test(arguments: [("1", "1"), ("1", "0"), ("0", "1")])
    func aSecondGETIsRevalidatedAndA304IsAnsweredFromTheStoredResponse(
        etag: String, lastModified: String
    ) async throws {
        let store = MemoryCacheStore()
        let client = revalidatingClient(store)
        let name = UUID().uuidString
        let request = Request(URL: server.url("/cached?name=\(name)&etag=\(etag)&lm=\(lastModified)"), method: .get)
        let first: Response<Served> = try await client.executeRequest(request: request)
        let second: Response<Served> = try await client.executeRequest(request: request)
        #expect(first.bodyObject == Served(name: name, served: 1))
        #expect(second.bodyObject == Served(name: name, served: 1))
        #expect(second.statusCode == 200 && second.raw.request == request)
        #expect(second.headers["X-Revalidated"] == "yes")  // the 304's headers are merged in
        #expect(second.raw.cacheUse == .revalidated)
        #expect(try await server.count("cached-\(name)-200") == 1)
        #expect(try await server.count("cached-\(name)-304") == 1)
        #expect(store.count == 1)
    }

    @Test func anotherUsersCredentialIsNotAnsweredFromTheStoredResponse() async throws {
        let client = revalidatingClient(MemoryCacheStore())
        let name = UUID().uuidString
        let url = server.url("/cached?name=\(name)")
        for token in ["ada", "grace"] {
            let _: Response<Served> = try await client.executeRequest(
                request: Request(MutableRequest(url: url) |> withBearerToken(token)))
        }
        #expect(try await server.count("cached-\(name)-200") == 2)
        #expect(try await server.count("cached-\(name)-304") == 0)
    }

    #if os(Linux)
    @Test func aRevalidatingCachePassesOnWhatItsTransportMeasured() async throws {
        final class Metrics: EventMonitor {
            let measured = LockedList<RequestMetrics>()
            func requestDidCollectMetrics(_ request: Request, attempt: Int, metrics: RequestMetrics) {
                measured.append(metrics)
            }
        }
        let recorder = Metrics()
        let client = HTTPClient(
            transport: CachingTransport(
                CurlTransport(), store: MemoryCacheStore(), defaultPolicy: .revalidate),
            monitors: [recorder], cookieJar: nil)
        let request = Request(URL: server.url("/cached?name=metrics-\(UUID().uuidString)"), method: .get)
        _ = try await client.perform(request)
        let second = try await client.perform(request)  // a 304: the stored body, the exchange measured all the same
        #expect(second.cacheUse == .revalidated)
        let measured = recorder.measured.values
        #expect(measured.count == 2)
        #expect(measured.last?.reusedConnection == true)
    }
    #endif

    @Test func theStoreEvictsTheLeastRecentlyUsedResponseBeyondItsLimit() async throws {
        let store = MemoryCacheStore(maximumEntries: 2)
        let client = revalidatingClient(store)
        let names = (0..<3).map { _ in UUID().uuidString }
        for name in names {
            let _: Response<Served> = try await client.executeRequest(
                request: Request(URL: server.url("/cached?name=\(name)"), method: .get))
        }
        #expect(store.count == 2)
        let _: Response<Served> = try await client.executeRequest(
            request: Request(URL: server.url("/cached?name=\(names[0])"), method: .get))
        #expect(try await server.count("cached-\(names[0])-200") == 2)  // evicted, so fetched in full again
    }
}
#endif
