public import Foundation

/// An HTTP/1.1 server on 127.0.0.1, in the test's own process, for ``TransportConformance`` and for tests of
/// transports and decorators: no Python, no network, nothing to install.
///
/// Each connection is served on a thread of its own and kept alive between requests. A request's body is read
/// whole (by `Content-Length` or chunked transfer coding) and handed to the handler, whose ``Reply`` is written
/// back: a whole response (`Content-Length` added), one sent in chunks with pauses, or bytes exactly as given
/// (for hostile cases). It serves until ``stop()`` (or its release) and bounds what a client may send (64 KiB of
/// head, 64 MiB of body), so a broken transport under test cannot exhaust the test process.
///
/// ```swift
/// let server = try TestHTTPServer { request in .response(status: 200, body: Data(request.path.utf8)) }
/// let reply = try await client.perform(Request(URL: server.url("/hello"), method: .get))
/// ```
public final class TestHTTPServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method, as sent.
        public let method: String
        /// The request target: the path and the query, as sent.
        public let target: String
        /// The header fields in order, names as sent.
        public let headers: [(name: String, value: String)]
        /// The body, after any chunked transfer coding.
        public let body: Data

        /// The path, without the query.
        public var path: String { String(target.prefix { $0 != "?" }) }

        /// The query's items, the first value of each name (percent-decoded).
        public var query: [String: String] {
            var items: [String: String] = [:]
            for item in URLComponents(string: "http://x" + target)?.queryItems ?? [] where items[item.name] == nil {
                items[item.name] = item.value ?? ""
            }
            return items
        }

        /// Every value of the field `name` (case-insensitive), in order.
        public func values(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    /// What the server answers.
    public enum Reply: Sendable {
        /// A whole response; `Content-Length` is added unless `headers` name one or the status has no body.
        case response(status: Int, headers: [(String, String)] = [], body: Data = Data())
        /// A response sent with chunked transfer coding, a pause of `pause` seconds before each chunk.
        case chunked(status: Int, headers: [(String, String)] = [], chunks: [Data], pause: Double = 0)
        /// These bytes exactly, then the connection is closed.
        case raw(Data)
        /// Nothing: the connection is closed without an answer.
        case close
    }

    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let connections = Connections()

    /// Starts serving with `handler`, which runs on the connection's thread (it may block: other connections go
    /// on).
    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        _ = Self.ignoringBrokenPipes
        self.handler = handler
        (listener, port) = try Self.openListener()
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "girders.test-server"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Stops accepting and closes every open connection. The listening socket is closed by the accepting thread as
    /// it ends (woken by the shutdown, or on Apple platforms by a connection made for the purpose), never while it
    /// may still call `accept` on the descriptor number.
    public func stop() {
        guard connections.stop() else { return }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        Self.knock(port)
    }

    /// Connects to `port` on 127.0.0.1 and hangs up at once.
    private static func knock(_ port: Int) {
        let socket = streamSocket()
        guard socket >= 0 else { return }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        _ = close(socket)
    }

    // MARK: Serving

    private func acceptLoop() {
        defer { _ = close(listener) }
        while true {
            let socket = accept(listener, nil, nil)
            guard socket >= 0 else {
                if errno == EINTR { continue }
                return  // stopped
            }
            guard connections.add(socket) else {
                _ = close(socket)
                return
            }
            var one: Int32 = 1
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let thread = Thread { [self] in
                serve(SocketReader(socket))
                connections.closeConnection(socket)
            }
            thread.start()
        }
    }

    private func serve(_ reader: SocketReader) {
        while let request = try? reader.readRequest() {
            let keepAlive = request.values("Connection").first?.lowercased() != "close"
            guard write(handler(request), to: reader.socket, method: request.method), keepAlive else { return }
        }
    }

    /// Writes `reply`; `false` when the connection must close.
    private func write(_ reply: Reply, to socket: Int32, method: String) -> Bool {
        switch reply {
        case .response(let status, let headers, let body):
            let bodyless = method == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status)
            var fields = headers
            if !bodyless, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
                fields.append(("Content-Length", String(body.count)))
            }
            return transmit(Self.head(status, fields) + (bodyless ? Data() : body), to: socket)
        case .chunked(let status, let headers, let chunks, let pause):
            guard transmit(Self.head(status, headers + [("Transfer-Encoding", "chunked")]), to: socket) else {
                return false
            }
            for chunk in chunks where !chunk.isEmpty {
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
                let framed = Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + chunk + Data("\r\n".utf8)
                guard transmit(framed, to: socket) else { return false }
            }
            return transmit(Data("0\r\n\r\n".utf8), to: socket)
        case .raw(let bytes):
            _ = transmit(bytes, to: socket)
            return false
        case .close:
            return false
        }
    }

    private static func head(_ status: Int, _ fields: [(String, String)]) -> Data {
        var text = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        return Data((text + "\r\n").utf8)
    }

    /// A reason phrase for the status line (clients do not read it).
    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301, 302, 303, 307, 308: "Redirect"
        case 304: "Not Modified"
        case 400..<500: "Client Error"
        case 500..<600: "Server Error"
        default: "Status"
        }
    }

    private func transmit(_ data: Data, to socket: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return false }
                let written = send(socket, base + offset, bytes.count - offset, 0)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// A port on 127.0.0.1 that nothing listens on (bound, then closed again): a connection to it is refused.
    public static func refusedPort() throws -> Int {
        let (socket, port) = try bindLoopback()
        _ = close(socket)
        return port
    }

    private static func openListener() throws -> (Int32, Int) {
        let (socket, port) = try bindLoopback()
        guard listen(socket, 128) == 0 else {
            _ = close(socket)
            throw ServerError("cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        return (socket, port)
    }

    /// A TCP socket bound to a free port of 127.0.0.1, and the port.
    private static func bindLoopback() throws -> (Int32, Int) {
        let socket = streamSocket()
        guard socket >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        _ = setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            _ = close(socket)
            throw ServerError("cannot bind to 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A write to a client that hung up is an error, not the end of the test process: SIGPIPE is ignored in a process
    /// that starts a server (once; the test process's own choice for the signal is replaced).
    private static let ignoringBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// A new TCP socket (Glibc imports `SOCK_STREAM` as an enum, Darwin as a number).
    private static func streamSocket() -> Int32 {
        #if canImport(Glibc)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// Why the server could not start.
    public struct ServerError: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public let description: String

        init(_ description: String) { self.description = description }
    }
}
