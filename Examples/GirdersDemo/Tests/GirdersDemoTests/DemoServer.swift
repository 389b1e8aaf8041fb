#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import Testing

/// `Server/demo_server.py` on a free port of 127.0.0.1, for one test.
final class DemoServer: Sendable {
    let process: Process
    /// The server's standard input, held open while the server should run.
    private let input = Pipe()
    let url: String

    init(accessUses: Int = 3) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = DemoTests.example.appendingPathComponent("Server/demo_server.py").path
        process.arguments = ["python3", script, "--flaky", "--access-uses", String(accessUses), "--exit-with-stdin"]
        let output = Pipe()
        process.standardOutput = output
        // The server exits when this pipe closes: when the server is released, or when the test process dies.
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let port = String(decoding: line, as: UTF8.self).dropFirst(5).prefix { $0.isNumber }
        try #require(!port.isEmpty, "the server printed no port")
        url = "http://127.0.0.1:\(port)"
    }

    /// Stops the server with SIGKILL: the test process's threads block SIGTERM, and a child inherits that mask.
    /// `waitUntilExit()` spins a CPU on a test's thread on Linux, so the exit is awaited with `waitpid` (which
    /// returns at once if Foundation reaped the process first).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        _ = waitpid(process.processIdentifier, nil, 0)
    }

    /// The server's counters: logins, refreshes, unavailable (503s sent), uploads.
    func stats() async throws -> [String: Int] {
        try JSONDecoder().decode([String: Int].self, from: try await call("/stats"))
    }

    func post(_ path: String) async throws { _ = try await call(path, .post) }

    private func call(_ path: String, _ method: HTTPMethod = .get) async throws -> Data {
        try await HTTPClient().perform(Request(URL: try #require(URL(string: url + path)), method: method)).body
    }
}

/// A temporary folder, deleted with its contents when the test lets go of it.
final class TemporaryFolder: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("girders-demo-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
}
#endif
