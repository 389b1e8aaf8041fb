#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// A transport of the user's own: the client's redirects, validation and decoding run on top of it unchanged.
final class ScriptedTransport: HTTPTransport {
    private let sent = LockedList<Request>()
    private let answer: @Sendable (Request) -> (Int, [String: String], String)

    init(answer: @escaping @Sendable (Request) -> (Int, [String: String], String)) {
        self.answer = answer
    }

    var requests: [Request] { sent.values }

    func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        sent.append(request.request)
        let (status, headers, body) = answer(request.request)
        try sink.deliver(
            HTTPResponse(
                statusCode: status, headers: HTTPHeaders(headers), body: Data(body.utf8), url: request.url,
                request: request.request))
    }
}

struct CustomTransportTests {
    struct Greeting: Decodable, Equatable { let hello: String }

    @Test func aPluggedTransportGetsRedirectsValidationAndDecodingFromTheClient() async throws {
        let transport = ScriptedTransport { request in
            request.url.path == "/old"
                ? (308, ["Location": "/new"], "")
                : (200, ["Content-Type": "application/json"], #"{"hello":"\#(request.method.rawValue)"}"#)
        }
        let client = HTTPClient(transport: transport)
        let request = Request(
            MutableRequest(method: .put, url: URL(string: "https://api.example.com/old")!) |> withTextBody("payload"))
        let response: Response<Greeting> = try await client.executeRequest(request: request)
        #expect(response.bodyObject == Greeting(hello: "PUT"))
        #expect(
            transport.requests.map(\.fullURL.absoluteString) == [
                "https://api.example.com/old", "https://api.example.com/new",
            ])
        #expect(transport.requests.last?.body == Data("payload".utf8))
        #expect(response.request == transport.requests.last)
    }

    @Test func statusErrorsFromAPluggedTransportKeepTheBody() async throws {
        let client = HTTPClient(transport: ScriptedTransport { _ in (422, ["X-Trace": "t1"], #"{"field":"name"}"#) })
        let error = await responseError {
            let _: Response<Greeting> = try await client.executeRequest(
                request: Request(URL: URL(string: "https://x.example")!, method: .post))
        }
        guard case .unprocessableEntity(let response) = error else {
            Issue.record("expected unprocessableEntity, got \(String(describing: error))")
            return
        }
        #expect(response.body == Data(#"{"field":"name"}"#.utf8) && response.headers["x-trace"] == "t1")
        #expect(error?.description.contains(#"HTTP 422"#) == true)
        #expect(error?.description.contains(#"{"field":"name"}"#) == true)
    }
}
#endif
