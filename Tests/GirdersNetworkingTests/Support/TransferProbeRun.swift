#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses

/// One run of the `TransferProbe` helper executable (built beside the tests), with its output and exit status.
struct TransferProbeRun {
    let status: Int32
    /// Whether it exited or was killed by a signal (then ``status`` is the signal).
    let reason: Process.TerminationReason
    let output: Data
    let errors: String

    /// Runs `TransferProbe arguments...`; `environment` replaces the process's own when given. The waiting happens
    /// on a thread of its own, not on Swift's few cooperative threads, which other tests need meanwhile.
    init(_ arguments: [String], environment: [String: String]? = nil) async throws {
        self = try await offThePool { try TransferProbeRun(blocking: arguments, environment: environment) }
    }

    private init(blocking arguments: [String], environment: [String: String]?) throws {
        let process = ChildProcess()
        process.executableURL = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent(
            "TransferProbe")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        self.output = output.fileHandleForReading.readDataToEndOfFile()
        self.errors = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        status = process.terminationStatus
        reason = process.terminationReason
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
