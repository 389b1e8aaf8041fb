#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import Testing

/// Whether python3 can import Python's `cryptography` package, which the scripts that read and write stores
/// independently of Girders use. `.ci/run` installs it; elsewhere those tests skip with the reason.
let pythonHasCryptography: Bool = {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import cryptography"]
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

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
