#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
#if os(Linux)
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// CurlTransport under load: many requests in flight, many in a row, half of them cancelled. Nothing may leak: the
/// open file descriptors return to where they were once the transport is gone, and a second round of the same work
/// does not grow the resident memory. `GIRDERS_LOAD_SCALE` (for example 0.1 under the sanitizers) scales the counts.
///
/// They count the whole process's descriptors, so they run only when `GIRDERS_LOAD_TESTS=1`, in a run of their own
/// (`.ci/run` does that), never beside other suites that open files.
@Suite(
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["GIRDERS_LOAD_TESTS"] == "1", "set GIRDERS_LOAD_TESTS=1"))
struct CurlLoadTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    static let scale: Double = ProcessInfo.processInfo.environment["GIRDERS_LOAD_SCALE"].flatMap(Double.init) ?? 1

    static func count(_ full: Int) -> Int { max(10, Int(Double(full) * scale)) }

    /// Whether descriptors and memory are measured: at full scale, where `.ci/run` runs these tests alone. Scaled
    /// down (under the sanitizers, beside other suites, with AddressSanitizer's quarantine holding freed memory) the
    /// same work runs to find races and memory errors, and the process-wide counts would measure the neighbours.
    static var measures: Bool { scale >= 1 }

    /// The process's open file descriptors.
    static func openDescriptors() -> Int {
        descriptorTargets().count
    }

    /// What each open descriptor refers to (`socket:[1234]`, a path), for messages.
    static func descriptorTargets() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
    }

    /// The process's resident memory in bytes.
    /// glibc's `malloc_trim` (in `<malloc.h>`, which the Glibc module leaves out), looked up by name.
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        // Invariant: the symbol, when found, is glibc's `int malloc_trim(size_t pad)`; without it nothing is trimmed.
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// The resident memory after glibc gave its free pages back (`malloc_trim`): what is still in use, not what the
    /// allocator's per-thread arenas happen to keep (that alone moved the third round by -28 to +33 MiB).
    static func residentBytes() -> Int {
        _ = mallocTrim?(0)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : -1
    }

    /// Waits up to 5 s for the descriptors to come back to `baseline` (the engine's thread closes its connections
    /// as it ends, just after the transport is released).
    static func descriptorsSettle(at baseline: Int) async throws -> Int {
        var now = openDescriptors()
        for _ in 0..<100 where now > baseline {
            try await Task.sleep(nanoseconds: 50_000_000)
            now = openDescriptors()
        }
        return now
    }

    func inFlight(_ total: Int, client: HTTPClient, cancellingEveryOther: Bool = false) async throws -> (Int, Int) {
        let url = server.url(cancellingEveryOther ? "/delay?ms=50" : "/small")
        return try await withThrowingTaskGroup(of: Bool?.self) { group in
            var tasks: [Task<Bool?, Never>] = []
            for index in 0..<total {
                let task = Task { () -> Bool? in
                    do {
                        _ = try await client.perform(Request(URL: url, method: .get))
                        return true
                    } catch {
                        return (error as? ResponseError)?.isCancellation == true ? nil : false
                    }
                }
                tasks.append(task)
                if cancellingEveryOther, index % 2 == 1 { task.cancel() }
            }
            for task in tasks { group.addTask { await task.value } }
            var succeeded = 0
            var cancelled = 0
            for try await outcome in group {
                switch outcome {
                case true?: succeeded += 1
                case nil: cancelled += 1
                case false?: break
                }
            }
            return (succeeded, cancelled)
        }
    }

    @Test func aThousandRequestsInFlightAndHalfOfAThousandCancelledLeakNothing() async throws {
        let total = Self.count(1_000)
        try await Task.sleep(nanoseconds: 1_000_000)  // Dispatch's timer descriptor, made on first use, before counting
        let baseline = Self.openDescriptors()
        // Memory is compared between the second and third rounds: the first two settle malloc's per-thread arenas
        // and the pools (round 1 to round 2 grew 2-19 MiB from run to run); a leak grows every round.
        var rssAfterSecondRound = 0
        for round in 0..<3 {
            let client = HTTPClient(transport: CurlTransport(maximumConnectionsPerHost: 32))
            let (succeeded, _) = try await inFlight(total, client: client)
            #expect(succeeded == total)
            let (finished, cancelled) = try await inFlight(total, client: client, cancellingEveryOther: true)
            #expect(finished + cancelled == total, "every request ended, succeeded or cancelled")
            #expect(cancelled > 0 && finished >= total / 2)
            if round == 1 { rssAfterSecondRound = Self.residentBytes() }
        }
        guard Self.measures else { return }
        let settled = try await Self.descriptorsSettle(at: baseline)
        #expect(settled <= baseline, "descriptors: \(baseline) before, \(settled) after")
        let growth = Self.residentBytes() - rssAfterSecondRound
        #expect(growth < 16 << 20, "resident memory grew by \(growth) bytes in the third round")
        // The figures themselves, for the log of the run that measured them.
        print(
            "CurlLoadTests: descriptors \(baseline) before, \(settled) after; resident memory "
                + "\(rssAfterSecondRound >> 20) MiB after round 2, grew \(growth >> 10) KiB in round 3")
    }

    @Test func tenThousandRequestsInARowReuseTheirConnection() async throws {
        let total = Self.count(10_000)
        try await Task.sleep(nanoseconds: 1_000_000)  // Dispatch's timer descriptor, made on first use, before counting
        let before = Self.descriptorTargets()
        let baseline = before.count
        do {
            let client = HTTPClient(transport: CurlTransport())
            for _ in 0..<total {
                let response = try await client.perform(Request(URL: server.url("/small"), method: .get))
                #expect(response.statusCode == 200)
            }
            // One kept-alive connection (and the engine's wake-up pipe), not one per request.
            if Self.measures {
                let open = Self.openDescriptors()
                #expect(open - baseline <= 4)
                print("CurlLoadTests: \(total) in a row: \(open - baseline) descriptors open beside the baseline")
            }
        }
        guard Self.measures else { return }
        let settled = try await Self.descriptorsSettle(at: baseline)
        var added = Self.descriptorTargets()
        for target in before { if let index = added.firstIndex(of: target) { added.remove(at: index) } }
        #expect(settled <= baseline, "descriptors: \(baseline) before, \(settled) after; new: \(added.sorted())")
    }
}
#endif
#endif
