import Foundation

/// One way of sending the HTTP benchmarks' requests (Girders on either transport, bare URLSession,
/// AsyncHTTPClient): each executable adapts its clients to this, and ``ThroughputScenario`` runs them alike.
public protocol ThroughputClient: Sendable {
    /// GETs `url` and returns the body's size.
    func get(_ url: URL) async throws -> Int
    /// GETs `url` into memory (a 100 MiB body) and returns its size.
    func downloadToMemory(_ url: URL) async throws -> Int
    /// GETs `url` into `file`.
    func downloadToFile(_ url: URL, _ file: URL) async throws
    /// POSTs `file` to `url`.
    func uploadFile(_ url: URL, _ file: URL) async throws
    /// Releases what the client holds.
    func shutdown() async throws
    /// The executor the small GETs' lanes prefer, if the client has one (Girders' CurlTransport.taskExecutor).
    var taskExecutor: (any TaskExecutor)? { get }
}

extension ThroughputClient {
    /// None: the lanes run on the global concurrent executor.
    public var taskExecutor: (any TaskExecutor)? { nil }
}

/// Why a scenario failed.
public struct ThroughputFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}

/// The scenarios of Scripts/bench-http.sh and Scripts/compare-http.sh, against nginx serving `small.json` (14
/// bytes), `big.bin` (100 MiB) and an `/upload` sink: small GETs one after another or 16 in flight, a 100 MiB
/// download to memory or to a file, a 100 MiB upload from a file.
public enum ThroughputScenario {
    /// Runs `scenario` (`extra`: the request count of the small ones, the file of the file ones) with `client` and
    /// returns the line every HTTP benchmark prints: "<scenario> <seconds> <requests/s or MiB/s> <peak RSS KiB>
    /// <CPU seconds of the scenario, every thread>", and for small GETs "<p50 µs> <p99 µs> <allocations per request,
    /// or - without Benchmarks/Tools/malloc-count.c loaded>" after it.
    public static func run(
        _ scenario: String, client: any ThroughputClient, base: URL, extra: String
    ) async throws -> String {
        let start = ContinuousClock.now
        let cpuStart = ProcessUsage.cpuSeconds()
        func seconds() -> Double {
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        var rate = 0.0
        var latency = ""
        switch scenario {
        case "small-sequential", "small-parallel":
            let total = Int(extra) ?? 5_000
            let url = base.appendingPathComponent("small.json")
            let lanes = scenario == "small-parallel" ? 16 : 1
            let allocationsBefore = AllocationCounter.allocations()
            // Each request's time from the call to its body, in nanoseconds, kept by its lane (no sharing).
            let durations = try await withThrowingTaskGroup(of: [UInt64].self) { group in
                for lane in 0..<lanes {
                    group.addTask(executorPreference: client.taskExecutor) {
                        var durations: [UInt64] = []
                        durations.reserveCapacity(total / lanes + 1)
                        for _ in stride(from: lane, to: total, by: lanes) {
                            let sent = DispatchTime.now().uptimeNanoseconds
                            guard try await client.get(url) > 0 else { throw ThroughputFailure("empty body") }
                            durations.append(DispatchTime.now().uptimeNanoseconds - sent)
                        }
                        return durations
                    }
                }
                var all: [UInt64] = []
                for try await lane in group { all += lane }
                return all.sorted()
            }
            rate = Double(total) / seconds()
            let allocationsAfter = AllocationCounter.allocations()
            latency = String(
                format: " %.1f %.1f %@", Self.percentile(durations, 0.50), Self.percentile(durations, 0.99),
                allocationsBefore.flatMap { before in
                    allocationsAfter.map { String(format: "%.1f", Double($0 - before) / Double(total)) }
                } ?? "-")
        case "download-memory":
            let count = try await client.downloadToMemory(base.appendingPathComponent("big.bin"))
            guard count == 100 << 20 else { throw ThroughputFailure("downloaded \(count) bytes") }
            rate = 100 / seconds()
        case "download-file":
            try await client.downloadToFile(base.appendingPathComponent("big.bin"), URL(fileURLWithPath: extra))
            rate = 100 / seconds()
        case "upload-file":
            try await client.uploadFile(base.appendingPathComponent("upload"), URL(fileURLWithPath: extra))
            rate = 100 / seconds()
        default:
            throw ThroughputFailure("unknown scenario \(scenario)")
        }
        let elapsed = seconds()
        if ProcessInfo.processInfo.environment["BENCH_THREAD_CPU"] == "1" {
            // Which thread limits a scenario: with CurlTransport at 16 in flight, its engine thread.
            let busiest = ProcessUsage.busiestThreadsMilliseconds(4).map { "\($0) ms" }.joined(separator: ", ")
            FileHandle.standardError.write(Data("busiest threads: \(busiest)\n".utf8))
        }
        try await client.shutdown()
        return String(
            format: "%@ %.3f %.1f %d %.3f", scenario, elapsed, rate, ProcessUsage.peakResidentKiB(),
            ProcessUsage.cpuSeconds() - cpuStart) + latency
    }

    /// The `fraction` percentile of `sorted` (nanoseconds), in microseconds.
    static func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return Double(sorted[max(0, index)]) / 1_000
    }
}
