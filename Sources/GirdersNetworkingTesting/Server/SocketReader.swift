import Foundation
import GirdersSupport

/// Reads HTTP/1.1 requests from one connection of ``TestHTTPServer``, bounded: at most 64 KiB of head and 64 MiB of
/// body, so a broken client cannot exhaust the test process.
final class SocketReader {
    let socket: Int32
    private var buffer: [UInt8] = []

    static let maximumHead = 64 << 10
    static let maximumBody = 64 << 20

    init(_ socket: Int32) {
        self.socket = socket
    }

    struct Failure: Error {}

    /// The next request, or `nil` when the connection closed between requests.
    func readRequest() throws -> TestHTTPServer.Request? {
        guard let head = try readHead() else { return nil }
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.first?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        guard requestLine.count >= 2 else { throw Failure() }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Failure() }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        func value(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }
        var body = Data()
        if value("transfer-encoding")?.lowercased().contains("chunked") == true {
            body = try readChunked()
        } else if let length = value("content-length").flatMap(Int.init) {
            guard length >= 0, length <= Self.maximumBody else { throw Failure() }
            body = try read(count: length)
        }
        return TestHTTPServer.Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    /// The head's text up to its blank line, or `nil` at a clean end of the connection.
    private func readHead() throws -> String? {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            guard buffer.count <= Self.maximumHead else { throw Failure() }
            guard try fill() else {
                if buffer.isEmpty { return nil }
                throw Failure()
            }
        }
    }

    private func readChunked() throws -> Data {
        var body = Data()
        while true {
            let line = try readFieldLine()
            guard let size = Int(line.split(separator: ";").first ?? "", radix: 16), size >= 0 else {
                throw Failure()
            }
            if size == 0 {
                while try !readFieldLine().isEmpty {}  // trailer fields, then the blank line
                return body
            }
            guard body.count + size <= Self.maximumBody else { throw Failure() }
            body += try read(count: size)
            guard try readFieldLine().isEmpty else { throw Failure() }
        }
    }

    private func readFieldLine() throws -> String {
        while true {
            if let end = find([13, 10]) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return line
            }
            guard buffer.count <= Self.maximumHead, try fill() else { throw Failure() }
        }
    }

    private func read(count: Int) throws -> Data {
        while buffer.count < count {
            guard try fill() else { throw Failure() }
        }
        let bytes = Data(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for start in 0...(buffer.count - needle.count) where buffer[start] == needle[0] {
            if buffer[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// Reads what the socket has; `false` at its end.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
            return true
        }
    }
}

/// The open connections of a ``TestHTTPServer``, so ``TestHTTPServer/stop()`` can close them.
final class Connections: Sendable {
    private struct State {
        var sockets: Set<Int32> = []
        var stopped = false
    }

    private let state = LockedState(State())

    /// Registers `socket`; `false` once stopped.
    func add(_ socket: Int32) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.sockets.insert(socket)
            return true
        }
    }

    /// Unregisters `socket` and closes it, under the lock: a socket in the set is always open, so ``stop()`` never
    /// shuts down a descriptor number the system already gave to another connection (of another server).
    func closeConnection(_ socket: Int32) {
        state.withLock { state in
            state.sockets.remove(socket)
            _ = close(socket)
        }
    }

    /// Marks the server stopped and shuts every open connection down (their threads then close them); `false` if
    /// it was stopped already.
    func stop() -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.stopped = true
            for socket in state.sockets { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            return true
        }
    }
}
