import Foundation
import GirdersNetworking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A transport written outside GirdersNetworking, against its public seam only: plain HTTP/1.1 over a POSIX socket
/// to 127.0.0.1, one connection per request. It reads the lowered body through `RequestBodyReader` (memory, file,
/// multipart and streams alike; `Content-Length` when the length is known, chunked when not), hands the head and
/// the body to the `ResponseSink` as they arrive, and maps its failures through `TransportFailure`. It asks for no
/// content coding, so it decodes none.
struct SocketTransport: HTTPTransport {
    func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        let body = try request.openBody()
        defer { body.close() }
        let connection = try Connection(request)
        do {
            try await withTaskCancellationHandler {
                try await write(request, body: body, to: connection, progress: sink)
                // The reads block: on a dispatch thread, not one of Swift's cooperative ones.
                let outcome = await withCheckedContinuation {
                    (continuation: CheckedContinuation<ResponseError?, Never>) in
                    DispatchQueue.global().async {
                        do throws(ResponseError) {
                            try connection.readResponse(into: sink, method: request.method)
                            continuation.resume(returning: nil)
                        } catch {
                            continuation.resume(returning: error)
                        }
                    }
                }
                if let outcome { throw outcome }
            } onCancel: {
                connection.abort()
            }
        } catch {
            connection.close()
            if Task.isCancelled { throw .cancelled(url: request.url) }
            throw error as? ResponseError
                ?? ResponseError(TransportFailure(.other, reason: "\(error)"), url: request.url)
        }
        if sink.asksForUpgrade, sink.status == 101 {
            sink.upgraded(to: SocketChannel(connection))  // the connection speaks the new protocol now
            return
        }
        connection.close()
    }

    private func write(
        _ request: WireRequest, body: RequestBodyReader, to connection: Connection, progress sink: ResponseSink
    ) async throws(ResponseError) {
        var head = "\(request.method) \(target(of: request.url)) HTTP/1.1\r\n"
        head += "Host: \(request.url.host ?? "127.0.0.1"):\(request.url.port ?? 80)\r\nConnection: close\r\n"
        for field in request.headers { head += "\(field.name): \(field.value)\r\n" }
        let chunked = body.length == nil
        if chunked {
            head += "Transfer-Encoding: chunked\r\n"
        } else if let length = body.length, length > 0 || ["POST", "PUT", "PATCH"].contains(request.method) {
            head += "Content-Length: \(length)\r\n"
        }
        try connection.write(Data((head + "\r\n").utf8))
        var sent: Int64 = 0
        while let chunk = try await body.next() {
            if chunked {
                try connection.write(
                    Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + chunk + Data("\r\n".utf8))
            } else {
                try connection.write(chunk)
            }
            sent += Int64(chunk.count)
            sink.sent(sent, of: body.length)
        }
        if chunked { try connection.write(Data("0\r\n\r\n".utf8)) }
    }

    private func target(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath.isEmpty == false ? components?.percentEncodedPath ?? "/" : "/"
        return path + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}

/// One connection of ``SocketTransport``: a blocking socket with the request's timeout on every read.
final class Connection: @unchecked Sendable {
    // Invariant: `socket` is written once in `init`; `abort()` may shut it down from another thread, which is what
    // unblocks a read, and `close()` runs after every other use.
    private let socket: Int32
    private let url: URL
    private var buffer: [UInt8] = []

    init(_ request: WireRequest) throws(ResponseError) {
        url = request.url
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw ResponseError(TransportFailure(.other, reason: "no socket"), url: url) }
        #if canImport(Darwin)
        var one: Int32 = 1  // Darwin's send has no MSG_NOSIGNAL
        _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval()
        timeout.tv_sec = .init(request.timeout.rounded(.down))
        timeout.tv_usec = .init((request.timeout - request.timeout.rounded(.down)) * 1e6)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(request.url.port ?? 80).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let reason = String(cString: strerror(errno))
            closeSocket(socket)
            throw ResponseError(TransportFailure(.cannotConnect, reason: reason), url: url)
        }
    }

    func abort() { _ = shutdown(socket, Int32(SHUT_RDWR)) }

    func close() { closeSocket(socket) }

    func write(_ data: Data) throws(ResponseError) {
        let failed = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return true }
                let written = sendSome(socket, base + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return true }
                offset += written
            }
            return false
        }
        if failed {
            throw ResponseError(TransportFailure(.interrupted, reason: "the request could not be sent"), url: url)
        }
    }

    /// Reads the response and hands it to `sink`: interim heads skipped, the final head, the body by its framing.
    func readResponse(into sink: ResponseSink, method: String) throws(ResponseError) {
        var status = 0
        var headers = HTTPHeaders()
        repeat {
            let statusLine = try line()
            let parts = statusLine.split(separator: " ")
            guard parts.count >= 2, let code = Int(parts[1]) else {
                throw ResponseError(TransportFailure(.malformedResponse, reason: "no status line"), url: url)
            }
            status = code
            headers = HTTPHeaders()
            while case let field = try line(), !field.isEmpty {
                guard let colon = field.firstIndex(of: ":") else { continue }
                headers.add(
                    name: String(field[..<colon]),
                    value: field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
        } while (100..<200).contains(status) && status != 101
        try sink.receiveHead(statusCode: status, headers: headers)
        if status == 101 { return }  // a WebSocket's: what follows is its frames
        guard method != "HEAD", status != 204, status != 304 else { return }
        if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            while true {
                guard let size = Int(try line().split(separator: ";").first ?? "", radix: 16) else {
                    throw ResponseError(TransportFailure(.malformedResponse, reason: "a bad chunk size"), url: url)
                }
                if size == 0 { break }
                try sink.receive(try bytes(size))
                _ = try line()
            }
        } else if let length = headers["Content-Length"].flatMap(Int.init) {
            var left = length
            while left > 0 {
                let piece = try some(maximum: min(left, 64 << 10), orInterruptedAfter: length - left, of: length)
                try sink.receive(piece)
                left -= piece.count
            }
        } else {
            while let piece = try? some(maximum: 64 << 10, orInterruptedAfter: 0, of: nil) { try sink.receive(piece) }
        }
    }

    /// The next bytes after the head (what was read past it first), or `nil` once the connection closed: for a
    /// WebSocket, which may stay quiet longer than the request's timeout.
    func readSome() -> Data? {
        if !buffer.isEmpty {
            defer { buffer = [] }
            return Data(buffer)
        }
        while true {
            do throws(ResponseError) {
                return try fill() ? readSome() : nil
            } catch {
                if error.kind == .timedOut { continue }
                return nil
            }
        }
    }

    private func fill() throws(ResponseError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw ResponseError(TransportFailure(.timedOut, reason: "no progress within the timeout"), url: url)
            }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
            return true
        }
    }

    private func line() throws(ResponseError) -> String {
        while true {
            if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return text
            }
            guard try fill() else {
                throw ResponseError(TransportFailure(.interrupted, reason: "the connection closed"), url: url)
            }
        }
    }

    private func bytes(_ count: Int) throws(ResponseError) -> Data {
        while buffer.count < count {
            guard try fill() else {
                throw ResponseError(TransportFailure(.interrupted, reason: "the connection closed"), url: url)
            }
        }
        defer { buffer.removeFirst(count) }
        return Data(buffer[..<count])
    }

    private func some(maximum: Int, orInterruptedAfter received: Int, of expected: Int?) throws(ResponseError) -> Data {
        if buffer.isEmpty, try !fill() {
            throw ResponseError(
                TransportFailure(
                    .interrupted, reason: "the connection closed before the whole body arrived",
                    receivedBytes: Int64(received), expectedBytes: expected.map(Int64.init)), url: url)
        }
        let count = min(maximum, buffer.count)
        defer { buffer.removeFirst(count) }
        return Data(buffer[..<count])
    }
}

/// A ``Connection`` after its `101`: blocking reads and writes, each on a dispatch thread; a protocol module (Girders'
/// WebSocket) frames over it. What a transport outside the module needs to give for upgrades: this and two calls on
/// the sink.
final class SocketChannel: UpgradedConnection {
    private let connection: Connection

    init(_ connection: Connection) {
        self.connection = connection
    }

    deinit {
        connection.close()
    }

    func read() async throws(ConnectionLost) -> Data? {
        let connection = self.connection
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: connection.readSome()) }
        }
    }

    func write(_ bytes: Data) async throws(ConnectionLost) {
        let connection = self.connection
        let failed = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(ResponseError) {
                    try connection.write(bytes)
                    continuation.resume(returning: false)
                } catch {
                    continuation.resume(returning: true)
                }
            }
        }
        if failed { throw ConnectionLost(reason: "the connection closed while writing") }
    }

    /// Shuts the socket down, which ends a read waiting on it; the descriptor is closed with the channel.
    func close() async {
        connection.abort()
    }
}

// The system's `close` and `send` (without SIGPIPE), named once for Glibc and Darwin.
#if canImport(Glibc)
private func closeSocket(_ socket: Int32) { _ = Glibc.close(socket) }
private func sendSome(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
}
#else
private func closeSocket(_ socket: Int32) { _ = Darwin.close(socket) }
private func sendSome(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    Darwin.send(socket, bytes, count, 0)
}
#endif
