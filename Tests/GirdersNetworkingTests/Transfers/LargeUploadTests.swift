#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestServers
import Testing

/// The 200 MB multipart upload, run by the `TransferProbe` helper in a process of its own so that its peak memory
/// is measured without the other tests' allocations.
struct LargeUploadTests {
    struct ProbeReport: Decodable {
        let baselineKB: Int
        let peakKB: Int
        let status: Int
        let body: String
    }

    @Test func aTwoHundredMegabyteFileUploadsAsMultipartWithinThirtyMegabytesOfExtraMemory() async throws {
        let server = try LoopbackServer.get()
        let file = try temporaryFolder().appendingPathComponent("large.bin")
        try await writePatternFile(file, megabytes: 200)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let run = try await TransferProbeRun([server.url("/multipart").absoluteString, file.path])
        #expect(run.status == 0, "TransferProbe failed: \(run.errors)")
        let report = try JSONDecoder().decode(ProbeReport.self, from: run.output)
        let parts = try JSONDecoder().decode([ReceivedPart].self, from: Data(report.body.utf8))
        #expect(report.status == 200)
        #expect(parts.map(\.name) == ["title", "file"])
        #expect(parts.last?.length == 200 << 20)
        let expectedHash = try await sha256OfFile(file)
        #expect(parts.last?.sha256 == expectedHash)
        #expect(report.baselineKB > 0)
        #expect(
            report.peakKB - report.baselineKB < 30 * 1024, "peak \(report.peakKB) KB, baseline \(report.baselineKB) KB")
    }
}
#endif
