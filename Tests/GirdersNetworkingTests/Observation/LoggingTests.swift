#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersLog
import GirdersNetworking
import GirdersTestServers
import Testing

/// Request logging through GirdersLog and cURL descriptions, with redaction.
struct LoggingTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test func eachAttemptIsLoggedOnceWithTimingAndCredentialsRedacted() async throws {
        let recorder = LogRecorder()
        let logger = Logger(label: "http", destination: recorder, level: .debug)
        let client = HTTPClient(
            transport: URLSessionTransport(configuration: .default),
            monitors: [LoggingMonitor(logger: logger, redaction: Redaction(queryItems: ["api_key"]))])
        let request = Request(
            MutableRequest(url: server.url("/echo")) |> withBearerToken("s3cret") |> withQueryItem("api_key", "k3y")
                |> withQueryItem("page", "2"))
        let _: Response<Data> = try await client.executeRequest(request: request)
        let lines = recorder.records.map { $0.message.text(revealingPrivate: true) }
        #expect(lines.count == 2)
        #expect(lines[0] == "→ GET \(server.url("/echo?api_key=%3Credacted%3E&page=2").absoluteString) (attempt 1)")
        #expect(lines[1].hasPrefix("← 200 GET \(server.url("/echo").absoluteString)"))
        #expect(lines[1].contains(" ms, ") && lines[1].hasSuffix(" bytes"))
        let everything = recorder.records.map { "\($0.message.text(revealingPrivate: true)) \($0.metadata)" }.joined()
        #expect(!everything.contains("s3cret") && !everything.contains("k3y"))
        #expect(everything.contains("<redacted>"))
    }

    @Test func failuresAreLoggedAsWarningsWithTheReason() async throws {
        let recorder = LogRecorder()
        let client = HTTPClient(
            transport: URLSessionTransport(configuration: .default),
            monitors: [LoggingMonitor(logger: Logger(label: "http", destination: recorder))])
        _ = await responseError {
            let _: Response<Data> = try await client.executeRequest(
                request: Request(URL: server.url("/status/503"), method: .get))
        }
        let warnings = recorder.records(at: .warning)
        #expect(warnings.count == 1)
        let line = warnings.first?.message.text(revealingPrivate: true) ?? ""
        #expect(line.hasPrefix("✗ 503 GET \(server.url("/status/503").absoluteString) failed in "))
        #expect(line.hasSuffix(" ms: HTTP 503"))
    }

    @Test func cURLDescriptionsRedactHeadersQueryAndJSONKeysUnlessAskedNotTo() {
        let request = Request(
            MutableRequest(method: .post, url: URL(string: "https://api.example.com/login"))
                |> withBasicAuth(username: "ada", password: "pw") |> withHeader("Cookie", "s=1")
                |> withQueryItem("token", "abc")
                |> withJSONBody(dictionary: ["user": "ada", "password": "pw", "nested": ["secret": 1]]))
        let redaction = Redaction(queryItems: ["token"], jsonKeys: ["password", "secret"])
        let redacted = request.cURLDescription(redacting: redaction)
        #expect(
            redacted
                == #"curl -X POST -H 'Authorization: <redacted>' -H 'Cookie: <redacted>' -H 'Content-Type: application/json' --data-binary '{"nested":{"secret":"<redacted>"},"password":"<redacted>","user":"ada"}' 'https://api.example.com/login?token=%3Credacted%3E'"#
        )
        let plain = request.cURLDescription(redacting: nil)
        #expect(plain.contains("Basic YWRhOnB3") && plain.contains("token=abc") && plain.contains(#""password":"pw""#))
        #expect(
            Request(
                MutableRequest(url: URL(string: "https://x.example/it's") ?? URL(fileURLWithPath: "/"))
                    |> withHeader("X", "a'b")
            ).cURLDescription() == #"curl -X GET -H 'X: a'\''b' 'https://x.example/it'\''s'"#)
        // A combining mark after the quote makes one Character of the two; the quote is escaped all the same.
        #expect(
            Request(
                MutableRequest(url: URL(string: "https://x.example/") ?? URL(fileURLWithPath: "/"))
                    |> withHeader("X", "a'\u{301}; rm -rf ~ '")
            ).cURLDescription() == #"curl -X GET -H 'X: a'\''\#u{301}; rm -rf ~ '\''' 'https://x.example/'"#)
    }
}
#endif
