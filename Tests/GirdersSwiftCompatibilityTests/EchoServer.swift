#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers

/// The networking tests' Python loopback server (`Tests/Support/GirdersTestServers/Server/loopback_server.py`),
/// started once for this target.
final class EchoServer {
    let port: Int
    private let stdin: FileHandle

    static let shared: Result<EchoServer, Error> = Result { try EchoServer() }

    private init() throws {
        let started = try PythonServer.start("loopback_server")
        port = started.port
        stdin = started.stdin
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
