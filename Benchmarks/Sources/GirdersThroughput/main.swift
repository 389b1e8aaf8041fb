// Girders alone against nginx, for Scripts/bench-http.sh and Scripts/compare-http.sh: it builds without the other
// clients' packages, so the comparison script can build it against an earlier commit of Girders in minutes.
//
// Usage: GirdersThroughput CLIENT SCENARIO BASE_URL [N|FILE]
//   CLIENT: girders-curl (CurlTransport, Linux), girders-urlsession (URLSessionTransport)
//   SCENARIO and the printed line: as HTTPThroughput's (BenchSupport's ThroughputScenario).
import BenchSupport
import Foundation
import GirdersNetworking

struct GirdersClient: ThroughputClient {
    let client: HTTPClient

    func get(_ url: URL) async throws -> Int {
        try await client.perform(Request(URL: url, method: .get)).body.count
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

func run() async throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 4, let base = URL(string: arguments[3]) else {
        throw ThroughputFailure("usage: GirdersThroughput CLIENT SCENARIO BASE_URL [N|FILE]")
    }
    let transport: any HTTPTransport
    switch arguments[1] {
    case "girders-curl":
        #if canImport(FoundationNetworking)
        transport = CurlTransport(cookieJar: nil)
        #else
        throw ThroughputFailure("CurlTransport is Linux only")
        #endif
    case "girders-urlsession": transport = URLSessionTransport()
    default: throw ThroughputFailure("unknown client \(arguments[1])")
    }
    let client = GirdersClient(client: HTTPClient(transport: transport))
    print(
        try await ThroughputScenario.run(
            arguments[2], client: client, base: base, extra: arguments.count > 4 ? arguments[4] : ""))
}

do {
    try await run()
} catch {
    print("\(CommandLine.arguments.dropFirst(2).first ?? "?") FAILED \(error)")
    exit(1)
}
