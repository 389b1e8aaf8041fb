// Girders alone against nginx, for Scripts/bench-http.sh and Scripts/compare-http.sh: it builds without the other
// clients' packages, so the comparison script can build it against an earlier commit of Girders in minutes.
//
// Usage: GirdersThroughput CLIENT SCENARIO BASE_URL [N|FILE]
//   CLIENT: girders-curl (CurlTransport, Linux), girders-curl-executor (the same, the small GETs' lanes preferring
//   its taskExecutor), girders-curl-equipped (the same with an AuthenticationInterceptor, a RetryPolicy and a
//   monitor), girders-urlsession (URLSessionTransport), girders-curl-cache and girders-curl-cache-file (a
//   CachingTransport over CurlTransport, in memory or on disk; small GETs of cached.json, fresh hits after the first)
//   SCENARIO and the printed line: as HTTPThroughput's (BenchSupport's ThroughputScenario).
import BenchSupport
import Foundation
import GirdersNetworking
import Synchronization

#if canImport(GirdersHTTPCache)  // an earlier Girders (Scripts/compare-http.sh) has the cache in GirdersNetworking
import GirdersHTTPCache
#endif

struct GirdersClient: ThroughputClient {
    let client: HTTPClient
    var taskExecutor: (any TaskExecutor)? = nil
    /// Whether small GETs ask for cached.json (the same body, fresh for a day) instead of small.json: the clients
    /// with a CachingTransport, whose requests after the first are fresh hits.
    var asksForCachedFile = false

    func get(_ url: URL) async throws -> Int {
        let target = asksForCachedFile ? url.deletingLastPathComponent().appendingPathComponent("cached.json") : url
        return try await client.perform(Request(URL: target, method: .get)).body.count
    }

    func downloadToMemory(_ url: URL) async throws -> Int {
        // 100 MiB kept in memory: above the default 32 MiB limit, so the request raises it.
        let limits = ResponseLimits(bodyBytes: 128 << 20)
        return try await client.perform(Request(MutableRequest(url: url) |> withResponseLimits(limits))).body.count
    }

    func downloadToFile(_ url: URL, _ file: URL) async throws {
        _ = try await client.download(Request(URL: url, method: .get), to: file)
    }

    func uploadFile(_ url: URL, _ file: URL) async throws {
        _ = try await client.upload(Request(MutableRequest(method: .post, url: url) |> withBodyFile(file)))
    }

    func shutdown() async throws {}
}

/// Signs every request with a bearer token that never needs a refresh (the equipped client's interceptor).
struct StaticTokenAuthenticator: Authenticator {
    func apply(_ credential: String, to request: Request) -> Request {
        request.settingHeader("Authorization", "Bearer \(credential)")
    }

    func refresh(_ credential: String) async throws -> String { credential }
}

/// Counts finished requests: a monitor that reads every request's end (and so has each exchange measured).
final class CountingMonitor: EventMonitor {
    private let finished = Mutex(0)

    func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double
    ) {
        finished.withLock { $0 += 1 }
    }
}

/// The client named `name`.
func makeClient(_ name: String) throws -> GirdersClient {
    let transport: any HTTPTransport
    var executor: (any TaskExecutor)?
    switch name {
    case "girders-curl", "girders-curl-executor", "girders-curl-equipped":
        #if canImport(FoundationNetworking)
        let curl = curlTransport()
        transport = curl
        if name == "girders-curl-executor" {
            #if GIRDERS_TASK_EXECUTOR
            executor = curl.taskExecutor
            #else
            throw ThroughputFailure("this Girders has no CurlTransport.taskExecutor")
            #endif
        }
        #else
        throw ThroughputFailure("CurlTransport is Linux only")
        #endif
    case "girders-urlsession": transport = URLSessionTransport()
    case "girders-curl-cache", "girders-curl-cache-file":
        // A CachingTransport in memory or on disk: every request after the first is a fresh hit.
        #if canImport(FoundationNetworking)
        let store: any HTTPCacheStore =
            name == "girders-curl-cache"
            ? MemoryCacheStore()
            : try FileCacheStore(
                folder: FileManager.default.temporaryDirectory.appendingPathComponent("girders-bench-\(UUID())"))
        return GirdersClient(
            client: client(over: CachingTransport(curlTransport(), store: store), cookies: false),
            asksForCachedFile: true)
        #else
        throw ThroughputFailure("CurlTransport is Linux only")
        #endif
    default: throw ThroughputFailure("unknown client \(name)")
    }
    // Equipped: what an app adds to a client (authentication, retries, a monitor), for the cost of the features.
    let equipped = name == "girders-curl-equipped"
    let interceptors: [any RequestInterceptor] =
        equipped ? [AuthenticationInterceptor(StaticTokenAuthenticator(), credential: "token"), RetryPolicy()] : []
    let monitors: [any EventMonitor] = equipped ? [CountingMonitor()] : []
    return GirdersClient(
        client: client(
            over: transport, cookies: name == "girders-urlsession", interceptors: interceptors, monitors: monitors),
        taskExecutor: executor)
}

#if canImport(FoundationNetworking)
/// A libcurl transport, with no cookie jar where the jar is the transport's (an earlier commit).
func curlTransport() -> CurlTransport {
    #if GIRDERS_CLIENT_COOKIE_JAR
    CurlTransport()
    #else
    CurlTransport(cookieJar: nil)
    #endif
}
#endif

/// A client over `transport`, with the shared cookie jar or (`cookies` false) none, wherever this Girders keeps it.
func client(
    over transport: any HTTPTransport, cookies: Bool, interceptors: [any RequestInterceptor] = [],
    monitors: [any EventMonitor] = []
) -> HTTPClient {
    #if GIRDERS_CLIENT_COOKIE_JAR
    HTTPClient(
        transport: transport, interceptors: interceptors, monitors: monitors,
        cookieJar: cookies ? CookieJars.shared : nil)
    #else
    HTTPClient(transport: transport, interceptors: interceptors, monitors: monitors)
    #endif
}

await ThroughputScenario.main(usage: "usage: GirdersThroughput CLIENT SCENARIO BASE_URL [N|FILE]") {
    try makeClient($0)
}
