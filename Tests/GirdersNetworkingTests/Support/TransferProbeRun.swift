#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestServers
import GirdersTestProcesses

/// One run of the `TransferProbe` helper executable (built beside the tests), with its output and exit status.
struct TransferProbeRun {
    let status: Int32
    /// Whether it exited or was killed by a signal (then ``status`` is the signal).
    let reason: Process.TerminationReason
    let output: Data
    let errors: String

    /// Runs `TransferProbe arguments...`; `environment` replaces the process's own when given. The waiting happens
    /// on threads of their own, not on Swift's few cooperative threads, which other tests need meanwhile.
    init(_ arguments: [String], environment: [String: String]? = nil) async throws {
        let process = ChildProcess()
        process.executableURL = testExecutable("TransferProbe")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let run = try await process.runToEnd()
        (status, reason, output, errors) = (run.status, run.reason, run.output, run.errorText)
    }

    /// What the `limit` and `stream` modes print: the peak resident memory over a warmed-up baseline, the body's
    /// bytes read (stream) and the error the request ended with.
    struct MemoryReport: Decodable {
        let baselineKB: Int
        let peakKB: Int
        let bytes: Int?
        let error: String

        /// How much the peak grew over the baseline, in KiB.
        var grewKB: Int { peakKB - baselineKB }
    }

    /// The run's output read as a ``MemoryReport``.
    func memoryReport() throws -> MemoryReport {
        try JSONDecoder().decode(MemoryReport.self, from: output)
    }
}
#endif
