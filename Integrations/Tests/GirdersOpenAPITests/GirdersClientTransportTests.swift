#if os(macOS) || os(Linux)  // starts processes: macOS and Linux only
import Foundation
import GirdersNetworking
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import GirdersOpenAPI

/// ``GirdersClientTransport`` with requests built by hand, as generated code builds them, against the tests' echo
/// server.
@Suite(.serialized)
struct GirdersClientTransportTests {
    struct Echo: Decodable {
        let method: String
        let target: String
        let body: String
        let header_lines: [[String]]
    }

    let server: ServerProcess
    let transport = GirdersClientTransport(client: HTTPClient())

    init() throws {
        server = try ServerProcess.echo()
    }

    func echo(_ response: HTTPTypes.HTTPResponse, _ body: HTTPBody?) async throws -> Echo {
        #expect(response.status == .ok)
        let data = try await Data(collecting: try #require(body), upTo: 1 << 20)
        return try JSONDecoder().decode(Echo.self, from: data)
    }

    @Test func everyFieldLineReachesTheServerInOrderWithThePathAndQuery() async throws {
        defer { server.stop() }
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: try #require(HTTPField.Name("X-Tag")), value: "one"))
        fields.append(HTTPField(name: try #require(HTTPField.Name("X-Tag")), value: "two"))
        let request = HTTPTypes.HTTPRequest(
            method: .get, scheme: nil, authority: nil, path: "/echo?a=1&b=%20", headerFields: fields)
        let (response, body) = try await transport.send(request, body: nil, baseURL: server.url, operationID: "echo")
        let echo = try await echo(response, body)
        #expect(echo.method == "GET")
        #expect(echo.target == "/echo?a=1&b=%20")
        let tags = echo.header_lines.filter { $0.first == "X-Tag" }.map { $0.last ?? "" }
        #expect(tags == ["one", "two"])
    }

    @Test func aBodyTheGeneratedCodeCanReadTwiceIsSentAgainAfterARedirect() async throws {
        defer { server.stop() }
        var fields = HTTPFields()
        fields.append(HTTPField(name: .contentType, value: "application/json"))
        let target = server.url.appendingPathComponent("echo").absoluteString
        let request = HTTPTypes.HTTPRequest(
            method: .post, scheme: nil, authority: nil, path: "/redirect307?to=\(target)", headerFields: fields)
        let body = HTTPBody(#"{"name":"girders"}"#)  // a known length, iterable more than once
        let (response, received) = try await transport.send(
            request, body: body, baseURL: server.url, operationID: "post")
        let echo = try await echo(response, received)
        #expect(echo.method == "POST")
        #expect(echo.body == #"{"name":"girders"}"#)
        let types = echo.header_lines.filter { $0.first == "Content-Type" }.map { $0.last ?? "" }
        #expect(types == ["application/json"], "one Content-Type, the generated code's")
    }

    @Test func aBodyTheGeneratedCodeCanReadOnlyOnceIsNeverSentTwice() async throws {
        defer { server.stop() }
        let target = server.url.appendingPathComponent("echo").absoluteString
        let request = HTTPTypes.HTTPRequest(
            method: .post, scheme: nil, authority: nil, path: "/redirect307?to=\(target)", headerFields: [:])
        let chunks = AsyncStream<HTTPBody.ByteChunk> { continuation in
            continuation.yield(ArraySlice("once".utf8))
            continuation.finish()
        }
        let body = HTTPBody(chunks, length: .unknown, iterationBehavior: .single)
        let error = await #expect(throws: ResponseError.self) {
            _ = try await transport.send(request, body: body, baseURL: server.url, operationID: "post")
        }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("was sent already"), "\(reason)")
    }

    @Test(arguments: [401, 404, 503])
    func aStatusTheClientRejectsStillReachesTheGeneratedCodeWithItsBody(status: Int) async throws {
        defer { server.stop() }
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/status/\(status)")
        let (response, body) = try await transport.send(request, body: nil, baseURL: server.url, operationID: "s")
        #expect(response.status.code == status)
        #expect(response.headerFields[.contentType] == "application/json")
        let data = try await Data(collecting: try #require(body), upTo: 1 << 10)
        #expect(String(decoding: data, as: UTF8.self) == #"{"status": \#(status)}"#)
    }

    @Test func aLargeBodyArrivesAsAStreamOfKnownLength() async throws {
        defer { server.stop() }
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/bytes?n=3000000")
        let (response, body) = try await transport.send(request, body: nil, baseURL: server.url, operationID: "b")
        #expect(response.status == .ok)
        let stream = try #require(body)
        #expect(stream.length == .known(3_000_000))
        var chunks = 0
        var bytes = 0
        for try await chunk in stream {
            chunks += 1
            bytes += chunk.count
        }
        #expect(bytes == 3_000_000)
        #expect(chunks > 1, "it arrived in pieces, not as one collected body")
    }

    @Test func aFailureWithoutAResponseIsThrownAsAResponseError() async throws {
        server.stop()  // nothing listens on its port any more
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/echo")
        let error = await #expect(throws: ResponseError.self) {
            _ = try await transport.send(request, body: nil, baseURL: server.url, operationID: "gone")
        }
        #expect(error?.kind == .cannotConnect, "\(String(describing: error))")
    }

    /// A transport of the app's own answering with a status code beyond what HTTPTypes accepts (its initialiser
    /// traps above 999): an error the generated client can catch, not a crash.
    @Test func aStatusCodeHTTPTypesWouldTrapOnIsAnErrorInstead() async throws {
        defer { server.stop() }
        struct FourDigits: HTTPTransport {
            func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
                try sink.receiveHead(statusCode: 1000, headers: HTTPHeaders(["Content-Length": "0"]))
            }
        }
        let transport = GirdersClientTransport(client: HTTPClient(transport: FourDigits()))
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/echo")
        let error = await #expect(throws: ResponseError.self) {
            _ = try await transport.send(request, body: nil, baseURL: server.url, operationID: "odd")
        }
        #expect(error?.kind == .malformedResponse, "\(String(describing: error))")
    }

    @Test func aMethodGirdersDoesNotSendIsRefusedBeforeSending() async throws {
        defer { server.stop() }
        let request = HTTPTypes.HTTPRequest(
            method: try #require(HTTPTypes.HTTPRequest.Method("QUERY")), scheme: nil, authority: nil, path: "/echo")
        await #expect(throws: ResponseError.invalidRequest(reason: #"the method "QUERY" is not supported"#)) {
            _ = try await transport.send(request, body: nil, baseURL: server.url, operationID: "query")
        }
    }

    @Test(arguments: [
        ("https://api.example.com", "/items?x=1", "https://api.example.com/items?x=1"),
        ("https://api.example.com/v2/", "/items", "https://api.example.com/v2/items"),
        ("https://api.example.com/v2", "items", "https://api.example.com/v2/items"),
        ("https://api.example.com/v2", "", "https://api.example.com/v2"),
    ])
    func theServerURLsPathIsKeptWhenThePathIsJoined(base: String, path: String, expected: String) throws {
        defer { server.stop() }
        let joined = try OpenAPIRequest.joined(try #require(URL(string: base)), path)
        #expect(joined.absoluteString == expected)
    }
}
#endif
