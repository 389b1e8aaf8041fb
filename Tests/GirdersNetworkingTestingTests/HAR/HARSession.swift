import Foundation
import GirdersNetworking
import GirdersNetworkingTesting
import GirdersSupport

/// A small API to record against: a sign-in that sets a cookie and returns a token, a redirect, a route that
/// fails once then answers, a binary body, an upload that answers with its size, and one session of requests that
/// goes through every one of them.
final class HARSession: Sendable {
    let server: TestHTTPServer
    private let flaky = LockedState(0)

    /// The rules the session's recordings hide values by.
    static let redaction = Redaction(queryItems: ["key"], jsonKeys: ["password", "accessToken"])

    init() throws {
        let flaky = self.flaky
        server = try TestHTTPServer { request in
            let json = [("Content-Type", "application/json")]
            switch request.path {
            case "/login":
                return .response(
                    status: 200, headers: json + [("Set-Cookie", "session=s3cr3t; Path=/; HttpOnly")],
                    body: Data(#"{"accessToken":"secret-token","user":"ada"}"#.utf8))
            case "/items":
                return .response(status: 200, headers: json, body: Data(#"[{"id":1,"name":"girder"}]"#.utf8))
            case "/moved":
                return .response(status: 302, headers: [("Location", "/items")])
            case "/flaky":
                let attempt = flaky.withLock { count in
                    count += 1
                    return count
                }
                return attempt == 1
                    ? .response(status: 503, headers: [("Retry-After", "0")], body: Data("busy".utf8))
                    : .response(status: 200, body: Data("steady".utf8))
            case "/binary":
                return .response(
                    status: 200, headers: [("Content-Type", "application/octet-stream")],
                    body: Data((0...255).map { UInt8($0) }))
            case "/upload":
                return .response(status: 201, body: Data("\(request.body.count) bytes".utf8))
            default:
                return .response(status: 404)
            }
        }
    }

    func stop() { server.stop() }

    /// The session's requests, in order.
    func requests(uploading file: URL) -> [Request] {
        var form = MultipartFormData(boundary: "har-session-boundary")
        form.append("girder", name: "title")
        form.append(Data(repeating: 9, count: 2_000), name: "blob", filename: "blob.bin", contentType: "x/y")
        return [
            Request(
                MutableRequest(method: .post, url: server.url("/login?key=abc&lang=en"))
                    |> withJSONBody(dictionary: ["user": "ada", "password": "lovelace"])
                    |> withHeader("Authorization", "Basic YWRhOmxvdmVsYWNl")),
            Request(MutableRequest(url: server.url("/moved"))),
            Request(MutableRequest(url: server.url("/flaky"))),
            Request(MutableRequest(url: server.url("/binary"))),
            Request(MutableRequest(method: .post, url: server.url("/upload")) |> withMultipartBody(form)),
            Request(MutableRequest(method: .put, url: server.url("/upload")) |> withBodyFile(file)),
        ]
    }

    /// A client through `transport` that retries the `503` at once.
    static func client(_ transport: any HTTPTransport) -> HTTPClient {
        HTTPClient(
            transport: transport, interceptors: [RetryPolicy(maximumAttempts: 2, baseDelay: 0, maximumDelay: 0)],
            cookieJar: RFC6265CookieJar())
    }

    /// Runs every request of the session and returns each final status and body.
    static func run(_ requests: [Request], on client: HTTPClient) async throws -> [(Int, Data)] {
        var outcomes: [(Int, Data)] = []
        for request in requests {
            let response = try await client.perform(request)
            outcomes.append((response.statusCode, response.body))
        }
        return outcomes
    }

    /// The transport Girders picks on this platform.
    static func transport() -> any HTTPTransport {
        HTTPClient.defaultTransport()
    }
}

/// A folder that is deleted when the value goes.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("girders-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
