#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import GirdersNetworking

/// The networking tests' Python loopback server (`Tests/Support/GirdersTestServers/Server/loopback_server.py`),
/// started once for this target, found beside this file's folder: the compatibility tests run from the checkout.
final class EchoServer {
    let port: Int
    private let stdin: FileHandle

    static let shared: Result<EchoServer, Error> = Result { try EchoServer() }

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/GirdersTestServers/Server/loopback_server.py")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            guard let chunk = try output.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty else {
                throw CocoaError(.fileReadCorruptFile)
            }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
        stdin = input.fileHandleForWriting
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/no-server") }

    /// The server's base URL for endpoints' `baseURL`, or a path nothing answers when the server could not start
    /// (every request then fails, naming it).
    static var endpointBaseURL: URL {
        (try? shared.get().baseURL) ?? URL(fileURLWithPath: "/no-server")
    }
}

/// What `/echo` reports about the request it received.
struct Echo: Decodable {
    let method: String
    let path: String
    let query: String
    let headers: [String: [String]]
    let body: String
}
#endif
