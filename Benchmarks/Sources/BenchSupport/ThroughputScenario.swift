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
    /// <CPU seconds of the scenario, every thread>".
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
        switch scenario {
        case "small-sequential", "small-parallel":
            let total = Int(extra) ?? 5_000
            let url = base.appendingPathComponent("small.json")
            let lanes = scenario == "small-parallel" ? 16 : 1
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<lanes {
                    group.addTask {
                        for _ in stride(from: lane, to: total, by: lanes) {
                            guard try await client.get(url) > 0 else { throw ThroughputFailure("empty body") }
                        }
                    }
                }
                try await group.waitForAll()
            }
            rate = Double(total) / seconds()
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
            ProcessUsage.cpuSeconds() - cpuStart)
    }
}
