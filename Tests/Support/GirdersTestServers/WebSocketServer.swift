#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
public import Foundation
public import GirdersNetworking

/// `Server/websocket_server.py`: PyPI's `websockets` (13.1), started once for the test run.
public struct WebSocketServer: Sendable {
    public let port: Int
    private let stdin: FileHandle

    public static let shared: Result<WebSocketServer, any Error> = Result { try WebSocketServer() }

    public static func get() throws -> WebSocketServer { try shared.get() }

    private init() throws {
        let started = try PythonServer.start("websocket_server")
        port = started.port
        stdin = started.stdin
    }

    /// `ws://127.0.0.1:<port><path>`.
    public func url(_ path: String, scheme: String = "ws") -> URL {
        URL(string: "\(scheme)://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/invalid-test-url")
    }

    /// A `GET` of `path` with the handshake's timeout (``WebSocketTestTimeout``).
    public func request(_ path: String) -> Request {
        var request = MutableRequest(method: .get, url: url(path))
        request.timeout = WebSocketTestTimeout.handshake
        return Request(request)
    }
}

/// The timeout of the tests' WebSocket handshakes that do not test one: the default (60 s) times the sanitizer's
/// slowdown. Under ThreadSanitizer the whole suite shares two cores, and a handshake once waited past 60 s for a turn
/// (the test then saw a timeout instead of what it checks).
public enum WebSocketTestTimeout {
    public static let handshake: Double = WireRequest.defaultTimeout * sanitizerSlowdown
}

/// `Server/websocket_hostile.py`: a raw-socket server that breaks one rule per route and tells what the client did.
public struct HostileWebSocketServer: Sendable {
    public let port: Int
    private let stdin: FileHandle

    /// What the server saw of the client on one connection.
    public struct Seen: Decodable, Equatable {
        /// The close code the client sent, if it sent one.
        public let close: UInt16?
        public let pongs: Int
        public let pings: Int
        /// Whether a send found the client's receive window full.
        public let blocked: Bool
        /// Whether the server is done with the connection.
        public let done: Bool
        /// The text messages the client sent before its close.
        public let texts: [String]
    }

    public static let shared: Result<HostileWebSocketServer, any Error> = Result { try HostileWebSocketServer() }

    public static func get() throws -> HostileWebSocketServer { try shared.get() }

    private init() throws {
        let started = try PythonServer.start("websocket_hostile")
        port = started.port
        stdin = started.stdin
    }

    /// A handshake for `path` on a connection named `id`.
    public func request(_ path: String, id: String, timeout: Double? = nil) -> Request {
        let separator = path.contains("?") ? "&" : "?"
        let url = URL(string: "ws://127.0.0.1:\(port)\(path)\(separator)id=\(id)") ?? URL(fileURLWithPath: "/")
        var request = MutableRequest(method: .get, url: url)
        request.timeout = timeout ?? WebSocketTestTimeout.handshake
        return Request(request)
    }

    /// What the server saw on connection `id` so far.
    public func seen(_ id: String) async throws -> Seen {
        let url = URL(string: "http://127.0.0.1:\(port)/_state?id=\(id)") ?? URL(fileURLWithPath: "/")
        let response = try await HTTPClient(transport: TransportKind.underTest.transport()).perform(
            Request(MutableRequest(method: .get, url: url)))
        return try JSONDecoder().decode(Seen.self, from: response.body)
    }

    /// What the server saw on connection `id` once it is done with it.
    public func seenWhenDone(_ id: String) async throws -> Seen {
        try await waitUntil(asking: { (try? await seen(id).done) == true })
        return try await seen(id)
    }
}
#endif
