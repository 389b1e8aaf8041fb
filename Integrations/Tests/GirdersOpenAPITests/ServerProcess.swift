#if os(macOS) || os(Linux)  // starts processes: macOS and Linux only
import Foundation
import Testing

/// A Python server on a free port of 127.0.0.1 for one test: it prints `PORT <n>` once it listens.
final class ServerProcess: Sendable {
    let process: Process
    /// The server's standard input, held open while the server should run.
    private let input = Pipe()
    let url: URL

    /// The folder of this file: `Server/` holds the tests' server; the example app's is under `Examples/`.
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    init(script: URL, arguments: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
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
        url = try #require(URL(string: "http://127.0.0.1:\(port)"))
    }

    /// The tests' own echo server.
    static func echo() throws -> ServerProcess {
        try ServerProcess(script: here.appendingPathComponent("Server/echo_server.py"))
    }

    /// The example app's server, whose API `openapi.yaml` describes.
    static func demo(accessUses: Int) throws -> ServerProcess {
        let script = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/GirdersDemo/Server/demo_server.py")
        return try ServerProcess(script: script, arguments: ["--access-uses", String(accessUses), "--exit-with-stdin"])
    }

    /// Stops the server with SIGKILL and reaps it (a test process's threads block SIGTERM, and children inherit it).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        _ = waitpid(process.processIdentifier, nil, 0)
    }
}
#endif
