// HTTPClient versus a bare URLSession: the same 2,000 GET requests to the same loopback server.
import Benchmark
import Foundation
import GirdersLog
import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The tests' Python loopback server, started once for the benchmark process.
enum BenchmarkServer {
    static let port: Int? = start()

    private static func start() -> Int? {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Tests/Support/GirdersTestServers/Server/loopback_server.py"
        ).standardizedFileURL
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        keepAlive = input
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            guard let chunk = try? output.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty else { return nil }
            line.append(chunk)
        }
        return Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The server exits when this pipe closes, that is, with the benchmark process.
    nonisolated(unsafe) private static var keepAlive: Pipe?
}

let requestCount = 2_000

/// One GET with a bare URLSession data task, the way code without a framework does it.
func bareGET(_ session: URLSession, _ url: URL) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
        session.dataTask(with: url) { data, response, error in
            if let error {
                continuation.resume(throwing: error)
            } else {
                continuation.resume(returning: (data?.count ?? 0) + ((response as? HTTPURLResponse)?.statusCode ?? 0))
            }
        }.resume()
    }
}

/// Runs `requestCount` operations with at most `width` in flight.
func run(width: Int, _ operation: @escaping @Sendable () async throws -> Int) async throws {
    try await withThrowingTaskGroup(of: Int.self) { group in
        var started = 0
        while started < min(width, requestCount) {
            group.addTask(operation: operation)
            started += 1
        }
        while let value = try await group.next() {
            blackHole(value)
            if started < requestCount {
                group.addTask(operation: operation)
                started += 1
            }
        }
    }
}

func registerThroughputBenchmarks() {
    guard let port = BenchmarkServer.port else {
        print("NetworkingBenchmarks: cannot start the loopback server; skipping the throughput benchmarks")
        return
    }
    guard let url = URL(string: "http://127.0.0.1:\(port)/small") else { return }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 5)
    let client = HTTPClient(transport: URLSessionTransport(configuration: .ephemeral))
    let session = URLSession(configuration: .ephemeral)
    let request = Request(URL: url, method: .get)

    // The same client with an adapter, a retrier and a logger at info level (two lines a request to a file).
    struct TraceHeader: RequestInterceptor {
        func adapt(_ request: Request, context: InterceptorContext) async throws -> Request {
            request.settingHeader("X-Trace", "bench")
        }
    }
    let logFile = FileManager.default.temporaryDirectory.appendingPathComponent(
        "girders-bench-\(UUID().uuidString).log")
    let logger = (try? FileDestination(url: logFile)).map { Logger(label: "http", destination: $0, level: .info) }
    let equipped = HTTPClient(
        transport: URLSessionTransport(configuration: .ephemeral), interceptors: [TraceHeader(), RetryPolicy()],
        monitors: logger.map { [LoggingMonitor(logger: $0)] } ?? [])

    for width in [1, 16] {
        let mode = width == 1 ? "sequential" : "16 in flight"
        Benchmark("2,000 GETs, \(mode): bare URLSession", configuration: configuration) { _ in
            try await run(width: width) { try await bareGET(session, url) }
        }
        Benchmark("2,000 GETs, \(mode): HTTPClient", configuration: configuration) { _ in
            try await run(width: width) {
                let response: Response<Data> = try await client.executeRequest(request: request)
                return response.body.count + response.statusCode
            }
        }
        Benchmark("2,000 GETs, \(mode): HTTPClient with adapter, retrier, logger", configuration: configuration) { _ in
            try await run(width: width) {
                let response: Response<Data> = try await equipped.executeRequest(request: request)
                return response.body.count + response.statusCode
            }
        }
    }
}
