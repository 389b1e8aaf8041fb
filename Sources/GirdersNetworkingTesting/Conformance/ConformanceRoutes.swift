import Foundation
import GirdersNetworking
import GirdersSupport

/// The routes of the ``TestHTTPServer`` that ``TransportConformance`` runs against.
extension TransportConformance {
    /// The request as the server saw it, as `/echo` answers it.
    struct Echo: Codable, Sendable {
        let method: String
        let target: String
        let headers: [[String]]
        let body: String  // base64

        func values(_ name: String) -> [String] {
            headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
        }

        var bodyData: Data { Data(base64Encoded: body) ?? Data() }
    }

    /// What ``gzipBody`` decodes to.
    static let plainGzipText = "girders conformance: gzip decoded\n"

    /// `girders conformance: gzip decoded\n`, gzip-compressed.
    static let gzipBody = Data([
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x4b, 0xcf, 0x2c, 0x4a, 0x49, 0x2d, 0x2a, 0x56,
        0x48,
        0xce, 0xcf, 0x4b, 0xcb, 0x2f, 0xca, 0x4d, 0xcc, 0x4b, 0x4e, 0xb5, 0x52, 0x48, 0xaf, 0xca, 0x2c, 0x50, 0x48,
        0x49,
        0x4d, 0xce, 0x4f, 0x49, 0x4d, 0xe1, 0x02, 0x00, 0x49, 0x73, 0xf6, 0x9e, 0x22, 0x00, 0x00, 0x00,
    ])

    /// Requests held by `/hold?name=` until `/release?name=`.
    static let gates = Gates()

    /// `/upgrade`: a `403` unless the request asks to switch to `girders-test` (RFC 9110, 7.8) without `?refuse=1`;
    /// then the `101` and, in the same write, the bytes `hello`, and the connection closes.
    static func upgrade(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        guard request.query["refuse"] == nil, request.values("Upgrade").first?.lowercased() == "girders-test" else {
            return .response(status: 403, body: Data("not a request to switch to girders-test".utf8))
        }
        var bytes = Data(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: girders-test\r\nConnection: Upgrade\r\n\r\n".utf8)
        bytes.append(contentsOf: Array("hello".utf8))
        return .raw(bytes)
    }

    /// `/echo` the request as JSON; `/status?code=` that status; `/repeat` two `X-Repeat` fields; `/redirect` a 302
    /// to `/echo`; `/slow?ms=` an answer after that long; `/hold?name=` and `/release?name=`; `/cut` a body cut
    /// short; `/chunks?n=` n chunked lines; `/big?n=` n bytes; `/gzip` a gzip-coded body to a client that accepts gzip.
    @Sendable static func route(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        let query = request.query
        switch request.path {
        case "/echo":
            let echo = Echo(
                method: request.method, target: request.target, headers: request.headers.map { [$0.name, $0.value] },
                body: request.body.base64EncodedString())
            let body = (try? JSONEncoder().encode(echo)) ?? Data()
            return .response(status: 200, headers: [("Content-Type", "application/json")], body: body)
        case "/status":
            let code = Int(query["code"] ?? "") ?? 200
            return .response(status: code, body: Data("status \(code)".utf8))
        case "/repeat":
            return .response(status: 200, headers: [("X-Repeat", "a"), ("X-Repeat", "b")], body: Data("ok".utf8))
        case "/redirect":
            return .response(status: 302, headers: [("Location", "/echo")], body: Data("moved".utf8))
        case "/slow":
            Thread.sleep(forTimeInterval: Double(Int(query["ms"] ?? "") ?? 0) / 1000)
            return .response(status: 200, body: Data("slow".utf8))
        case "/hold":
            gates.hold(query["name"] ?? "")
            return .response(status: 200, body: Data("released".utf8))
        case "/release":
            gates.release(query["name"] ?? "")
            return .response(status: 200)
        case "/cut":
            return .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n0123456789".utf8))
        case "/chunks":
            let count = Int(query["n"] ?? "") ?? 3
            return .chunked(status: 200, chunks: (0..<count).map { Data("line \($0)\n".utf8) }, pause: 0.005)
        case "/big":
            return .response(status: 200, body: Data(repeating: 0x61, count: Int(query["n"] ?? "") ?? 0))
        case "/gzip":
            // Coded only for a client that asked for it, as a server should.
            let accepts = request.values("Accept-Encoding").joined(separator: ",").lowercased().contains("gzip")
            guard accepts else {
                return .response(status: 200, headers: [("Content-Type", "text/plain")], body: Data(plainGzipText.utf8))
            }
            return .response(
                status: 200, headers: [("Content-Encoding", "gzip"), ("Content-Type", "text/plain")], body: gzipBody)
        case "/upgrade":
            return upgrade(request)
        default:
            return .response(status: 404)
        }
    }

    /// Named gates a request waits at until released (or a minute passes).
    final class Gates: Sendable {
        private let condition = NSCondition()
        private let released = LockedState<Set<String>>([])
        private let arrived = LockedState<[String: Int]>([:])

        func hold(_ name: String) {
            condition.lock()
            defer { condition.unlock() }
            arrived.withLock { $0[name, default: 0] += 1 }
            let end = Date().addingTimeInterval(60)
            while !released.withLock({ $0.contains(name) }), condition.wait(until: end) {}
        }

        func release(_ name: String) {
            condition.lock()
            released.withLock { _ = $0.insert(name) }
            condition.broadcast()
            condition.unlock()
        }

        func arrivals(_ name: String) -> Int { arrived.withLock { $0[name] ?? 0 } }
    }
}
