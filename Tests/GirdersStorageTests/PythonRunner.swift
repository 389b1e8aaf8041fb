#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import Testing

/// Runs `Scripts/<script>.py` with python3 and returns its exit status and standard output.
func runPython(_ script: String, _ arguments: [String]) async throws -> (status: Int32, output: Data) {
    let url = try #require(Bundle.module.url(forResource: script, withExtension: "py", subdirectory: "Scripts"))
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", url.path] + arguments
    let run = try await process.runToEnd()
    return (run.status, run.output)
}
#endif
