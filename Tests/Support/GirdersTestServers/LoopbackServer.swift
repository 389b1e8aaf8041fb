#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
public import Foundation
public import GirdersTestProcesses
public import GirdersNetworking
import GirdersNetworkingTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Python standard-library HTTP server in `Server/loopback_server.py`, started once for the whole test run on
/// a free port of 127.0.0.1. It exits when this process closes its stdin (or dies).
public struct LoopbackServer: Sendable {
    public let port: Int
    private let stdin: FileHandle

    /// The server shared by every test; starting it costs about 50 ms.
    public static let shared: Result<LoopbackServer, any Error> = Result { try LoopbackServer() }

    public static func get() throws -> LoopbackServer { try shared.get() }

    private init() throws {
        let started = try PythonServer.start("loopback_server")
        self.port = started.port
        self.stdin = started.stdin
    }

    /// `http://<host>:<port><path>`.
    public func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(port)\(path)") ?? URL(fileURLWithPath: "/invalid-test-url")
    }

    /// The server's counter `name` (see the routes that count in loopback_server.py); 0 when never counted.
    public func count(_ name: String) async throws -> Int {
        struct Count: Decodable { let count: Int }
        let response: Response<Count> = try await makeClient().executeRequest(
            request: Request(URL: url("/count?name=\(name)"), method: .get))
        return response.bodyObject?.count ?? -1
    }

    /// A port nothing listens on: bound, then closed again.
    public static func refusedPort() throws -> Int {
        try TestHTTPServer.refusedPort()
    }
}

/// Starts a Python script from the test bundle's `Server` folder and reads the port it prints on its first line.
/// The script exits when its standard input closes (close `stdin`, or let this process end).
public enum PythonServer {
    public static func start(
        _ name: String, arguments: [String] = []
    ) throws -> (
        process: ChildProcess, port: Int, stdin: FileHandle
    ) {
        guard let script = Bundle.module.url(forResource: name, withExtension: "py", subdirectory: "Server") else {
            throw ServerError("\(name).py is missing from the test bundle")
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            guard let chunk = try output.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty else {
                throw ServerError("\(name).py exited before printing its port")
            }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else { throw ServerError("\(name).py printed no port: \(text)") }
        return (process, port, input.fileHandleForWriting)
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What `/echo` reports about the request it received.
public struct Echo: Decodable, Sendable {
    public let method: String
    public let path: String
    public let query: String
    public let headers: [String: [String]]
    public let body: String
    public let body_length: Int
    /// Every field line as it arrived, in order (repeated names stay apart).
    public let header_lines: [[String]]

    public func header(_ name: String) -> String? { headers[name.lowercased()]?.first }
}

/// Builds a client on the transport under test (``TransportKind/underTest``), new for each client, so tests do not
/// share connection pools or cookies.
public func makeClient(
    validation: ResponseValidation = ResponseValidation(), redirects: RedirectPolicy = .follow(),
    handlers: ResponseHandlerChain = .standard
) -> HTTPClient {
    HTTPClient(
        transport: TransportKind.underTest.transport(), responseHandlers: handlers, validation: validation,
        redirects: redirects, cookieJar: RFC6265CookieJar())
}

/// Runs `body` and returns the `ResponseError` it threw, or `nil` if it did not throw one.
public func responseError(_ body: () async throws -> Void) async -> ResponseError? {
    do {
        try await body()
        return nil
    } catch let error as ResponseError {
        return error
    } catch {
        return nil
    }
}
#endif
