// HTTP clients side by side against the same server (Scripts/bench-http.sh starts nginx on 127.0.0.1 and runs
// this once per client and scenario, each in a process of its own so the peak memory is the scenario's).
//
// Usage: HTTPThroughput CLIENT SCENARIO BASE_URL [N|FILE]
//   CLIENT: girders-curl, girders-urlsession, urlsession, async-http-client
//   SCENARIO: small-sequential N, small-parallel N (16 in flight), download-memory, download-file FILE,
//             upload-file FILE
// Prints one line: "<scenario> <seconds> <requests/s or MiB/s> <peak RSS KiB> <CPU seconds of the scenario,
// every thread>", as CurlLimit does. With BENCH_THREAD_CPU=1 it also writes the CPU time of its four busiest
// threads to standard error.
import AsyncHTTPClient
import BenchSupport
import Foundation
import GirdersNetworking
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// One way of sending the scenarios' requests.
protocol Client: Sendable {
    func get(_ url: URL) async throws -> Int
    func downloadToMemory(_ url: URL) async throws -> Int
    func downloadToFile(_ url: URL, _ file: URL) async throws
    func uploadFile(_ url: URL, _ file: URL) async throws
    func shutdown() async throws
}

struct GirdersClient: Client {
    let client: GirdersNetworking.HTTPClient

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

struct BareURLSession: Client {
    let session: URLSession

    func data(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, _, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: data ?? Data())
                }
            }.resume()
        }
    }

    func get(_ url: URL) async throws -> Int { try await data(URLRequest(url: url)).count }

    func downloadToMemory(_ url: URL) async throws -> Int { try await data(URLRequest(url: url)).count }

    func downloadToFile(_ url: URL, _ file: URL) async throws {
        let location: URL = try await withCheckedThrowingContinuation { continuation in
            session.downloadTask(with: url) { location, _, error in
                guard let location else {
                    continuation.resume(throwing: error ?? Failure(description: "no file"))
                    return
                }
                // The file is deleted when the handler returns: move it first.
                let kept = file.appendingPathExtension("part")
                do {
                    try FileManager.default.moveItem(at: location, to: kept)
                    continuation.resume(returning: kept)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.resume()
        }
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: location, to: file)
    }

    func uploadFile(_ url: URL, _ file: URL) async throws {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            session.uploadTask(with: request, fromFile: file) { _, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }.resume()
        }
    }

    func shutdown() async throws { session.invalidateAndCancel() }
}

struct AHC: Client {
    let client = AsyncHTTPClient.HTTPClient(eventLoopGroupProvider: .singleton)

    func get(_ url: URL) async throws -> Int {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(60))
        return try await response.body.collect(upTo: 1 << 20).readableBytes
    }

    func downloadToMemory(_ url: URL) async throws -> Int {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(60))
        return try await response.body.collect(upTo: 200 << 20).readableBytes
    }

    func downloadToFile(_ url: URL, _ file: URL) async throws {
        let request = try AsyncHTTPClient.HTTPClient.Request(url: url.absoluteString)
        let delegate = try FileDownloadDelegate(path: file.path)
        _ = try await client.execute(request: request, delegate: delegate).get()
    }

    func uploadFile(_ url: URL, _ file: URL) async throws {
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        let handle = try FileHandle(forReadingFrom: file)
        let chunks = AsyncStream<ByteBuffer> { continuation in
            while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty {
                continuation.yield(ByteBuffer(bytes: data))
            }
            continuation.finish()
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.body = .stream(chunks, length: .known(Int64(size)))
        let response = try await client.execute(request, timeout: .seconds(120))
        _ = try await response.body.collect(upTo: 1 << 20)
        try handle.close()
    }

    func shutdown() async throws { try await client.shutdown() }
}

/// The CPU time of the process's busiest threads so far, in milliseconds, busiest first (from `/proc/self/task`;
/// empty where there is none).
func busiestThreadsMilliseconds(_ count: Int) -> [Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    let ticksPerSecond = max(sysconf(Int32(_SC_CLK_TCK)), 1)
    let ticks = tasks.compactMap { task -> Int? in
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state is field 0, utime field 11, stime field 12.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
    return ticks.sorted(by: >).prefix(count).map { $0 * 1000 / ticksPerSecond }
}

func run() async throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 4, let base = URL(string: arguments[3]) else {
        throw Failure(description: "usage: HTTPThroughput CLIENT SCENARIO BASE_URL [N|FILE]")
    }
    let scenario = arguments[2]
    let extra = arguments.count > 4 ? arguments[4] : ""
    let client: any Client
    switch arguments[1] {
    case "girders-curl":
        #if canImport(FoundationNetworking)
        client = GirdersClient(client: GirdersNetworking.HTTPClient(transport: CurlTransport(cookieJar: nil)))
        #else
        throw Failure(description: "CurlTransport is Linux only")
        #endif
    case "girders-urlsession":
        client = GirdersClient(client: GirdersNetworking.HTTPClient(transport: URLSessionTransport()))
    case "urlsession": client = BareURLSession(session: URLSession(configuration: .default))
    case "async-http-client": client = AHC()
    default: throw Failure(description: "unknown client \(arguments[1])")
    }
    let start = ContinuousClock.now
    let cpuStart = ProcessUsage.cpuSeconds()
    var rate = 0.0
    func seconds() -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    switch scenario {
    case "small-sequential", "small-parallel":
        let total = Int(extra) ?? 5_000
        let url = base.appendingPathComponent("small.json")
        let lanes = scenario == "small-parallel" ? 16 : 1
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    for _ in stride(from: lane, to: total, by: lanes) {
                        guard try await client.get(url) > 0 else { throw Failure(description: "empty body") }
                    }
                }
            }
            try await group.waitForAll()
        }
        rate = Double(total) / seconds()
    case "download-memory":
        let count = try await client.downloadToMemory(base.appendingPathComponent("big.bin"))
        guard count == 100 << 20 else { throw Failure(description: "downloaded \(count) bytes") }
        rate = 100 / seconds()
    case "download-file":
        try await client.downloadToFile(base.appendingPathComponent("big.bin"), URL(fileURLWithPath: extra))
        rate = 100 / seconds()
    case "upload-file":
        try await client.uploadFile(base.appendingPathComponent("upload"), URL(fileURLWithPath: extra))
        rate = 100 / seconds()
    default:
        throw Failure(description: "unknown scenario \(scenario)")
    }
    let elapsed = seconds()
    if ProcessInfo.processInfo.environment["BENCH_THREAD_CPU"] == "1" {
        // Which thread limits a scenario: with CurlTransport at 16 in flight, its engine thread.
        let busiest = busiestThreadsMilliseconds(4).map { "\($0) ms" }.joined(separator: ", ")
        FileHandle.standardError.write(Data("busiest threads: \(busiest)\n".utf8))
    }
    try await client.shutdown()
    print(
        String(
            format: "%@ %.3f %.1f %d %.3f", scenario, elapsed, rate, ProcessUsage.peakResidentKiB(),
            ProcessUsage.cpuSeconds() - cpuStart))
}

do {
    try await run()
} catch {
    print("\(CommandLine.arguments.dropFirst(2).first ?? "?") FAILED \(error)")
    exit(1)
}
