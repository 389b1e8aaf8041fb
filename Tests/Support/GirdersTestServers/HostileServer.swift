#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
public import Foundation
public import GirdersNetworking

/// The raw-socket server in `Server/hostile_server.py`, started once for the whole test run on a free port of
/// 127.0.0.1: each route acts out one way a server can exhaust a client (see the script's routes).
public struct HostileServer: Sendable {
    public let port: Int
    private let stdin: FileHandle

    public static let shared: Result<HostileServer, any Error> = Result { try HostileServer() }

    public static func get() throws -> HostileServer { try shared.get() }

    private init() throws {
        let started = try PythonServer.start("hostile_server")
        self.port = started.port
        self.stdin = started.stdin
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/invalid-test-url")
    }
}

extension ResponseError {
    /// The limit and its value, when the error is ``ResponseError/limitExceeded(url:limit:maximum:)``.
    public var exceededLimit: (limit: ResponseLimits.Limit, maximum: Int64)? {
        if case .limitExceeded(_, let limit, let maximum) = self { return (limit, maximum) }
        return nil
    }
}
#endif
