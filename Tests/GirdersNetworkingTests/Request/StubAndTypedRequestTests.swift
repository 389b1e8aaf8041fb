#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import GirdersNetworkingTesting
import Testing

/// An endpoint with sample responses.
enum CatalogEndpoint: StubbedEndpoint {
    case item(Int)
    case missing

    var baseURL: URL { URL(string: "https://catalog.example") ?? URL(fileURLWithPath: "/") }
    var path: String {
        switch self {
        case .item(let id): "/items/\(id)"
        case .missing: "/items/none"
        }
    }
    var sampleResponse: StubResponse {
        switch self {
        case .item(let id): .json(#"{"name":"item \#(id)"}"#)
        case .missing: .json(#"{"error":"gone"}"#, statusCode: 404)
        }
    }
}

struct StubTests {
    struct Item: Decodable, Equatable, Sendable { let name: String }

    @Test func endpointsAnswerWithTheirSampleResponsesThroughValidationAndDecoding() async throws {
        let client = HTTPClient(
            transport: StubTransport(endpoints: [CatalogEndpoint.item(7), CatalogEndpoint.missing]))
        let item: Response<Item> = try await client.executeRequest(request: Request(endpoint: CatalogEndpoint.item(7)))
        #expect(item.bodyObject == Item(name: "item 7"))
        let error = await responseError {
            let _: Response<Item> = try await client.executeRequest(request: Request(endpoint: CatalogEndpoint.missing))
        }
        guard case .notFound(let response) = error else {
            Issue.record("a stubbed 404 must fail validation, got \(String(describing: error))")
            return
        }
        #expect(response.body == Data(#"{"error":"gone"}"#.utf8))
        let unknown = await responseError {
            let _: Response<Item> = try await client.executeRequest(request: Request(endpoint: CatalogEndpoint.item(8)))
        }
        #expect(unknown?.reason.contains("no stub for GET https://catalog.example/items/8") == true)
    }

    @Test func stubbedFailuresAreRetriedAndMalformedBodiesFailDecoding() async throws {
        let transport = StubTransport(responses: [
            .json("{}", statusCode: 503), .failure(.timedOut(url: nil)), .json(#"{"name":"ok"}"#),
        ])
        let client = HTTPClient(transport: transport, interceptors: [RetryPolicy(maximumAttempts: 3, baseDelay: 0.001)])
        let item: Response<Item> = try await client.executeRequest(
            request: Request(URL: apiBase.appendingPathComponent("x"), method: .get))
        #expect(item.bodyObject == Item(name: "ok"))
        #expect(transport.requests.count == 3)
        let malformed = HTTPClient(transport: StubTransport(responses: [.json(#"{"name": 1"#)]))
        let error = await responseError {
            let _: Response<Item> = try await malformed.executeRequest(
                request: Request(URL: apiBase.appendingPathComponent("x"), method: .get))
        }
        guard case .decodingFailed(let failure) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.bodyPrefix == #"{"name": 1"#)
    }

    @Test func aStubbedDelayEndsWithACancellationWhenTheTaskIsCancelled() async throws {
        let asked = LockedList<Int>()
        let client = HTTPClient(
            transport: StubTransport { _, index in
                asked.append(index)
                return .json("{}", delay: 30)
            })
        let task = Task { () async throws -> Response<Data> in
            try await client.executeRequest(request: Request(URL: apiBase.appendingPathComponent("slow"), method: .get))
        }
        try await waitUntil { !asked.values.isEmpty }  // the stub is answering: the cancel lands in its delay
        #expect(asked.values == [0])
        task.cancel()
        let error = await responseError { _ = try await task.value }
        #expect(error?.isCancellation == true)
    }

    @Test func stubbed401sGoThroughTheRefreshPipeline() async throws {
        let transport = StubTransport { request, _ in
            request.headers["Authorization"] == "Bearer fresh"
                ? .json(#"{"name":"secret"}"#) : .json("{}", statusCode: 401)
        }
        let refreshes = LockedList<String>()
        let client = HTTPClient(
            transport: transport,
            interceptors: [
                AuthenticationInterceptor(
                    CountingAuthenticator(refreshes: refreshes) { _ in "fresh" }, credential: "old")
            ])
        let item: Response<Item> = try await client.executeRequest(
            request: Request(URL: apiBase.appendingPathComponent("me"), method: .get))
        #expect(item.bodyObject == Item(name: "secret"))
        #expect(refreshes.values == ["old"])
    }
}

struct TypedRequestTests {
    struct Item: Decodable, Equatable, Sendable { let name: String }

    struct GetItem: TypedRequest {
        typealias Success = Item
        let id: Int
        var request: Request {
            Request(URL: URL(string: "https://catalog.example/items/\(id)") ?? URL(fileURLWithPath: "/"), method: .get)
        }
        func editComponents(_ components: inout URLComponents) {
            components.queryItems = [URLQueryItem(name: "lang", value: "de")]
        }
    }

    struct DeleteItem: NoContentRequest {
        let id: Int
        var request: Request {
            Request(
                URL: URL(string: "https://catalog.example/items/\(id)") ?? URL(fileURLWithPath: "/"), method: .delete)
        }
    }

    @Test func aTypedRequestDecodesItsDeclaredTypeAfterEditingTheURL() async throws {
        let transport = StubTransport { request, _ in
            request.fullURL.absoluteString == "https://catalog.example/items/7?lang=de"
                ? .json(#"{"name":"Sieben"}"#) : nil
        }
        let item = try await HTTPClient(transport: transport).send(GetItem(id: 7))
        #expect(item == Item(name: "Sieben"))
    }

    @Test func aNoContentRequestSucceedsOnlyWithoutABody() async throws {
        try await HTTPClient(transport: StubTransport(responses: [StubResponse(statusCode: 204)])).send(
            DeleteItem(id: 1))
        let error = await responseError {
            try await HTTPClient(transport: StubTransport(responses: [.json(#"{"deleted":true}"#)])).send(
                DeleteItem(id: 1))
        }
        guard case .decodingFailed(let failure) = error else {
            Issue.record("a body must fail a no-content request, got \(String(describing: error))")
            return
        }
        #expect(failure.reason == "expected no content, got 16 bytes")
    }

    @Test func typedRequestsWorkAgainstTheRealServer() async throws {
        struct Echoed: TypedRequest {
            typealias Success = Echo
            let url: URL
            var request: Request { Request(URL: url, method: .get, queryParameters: ["q": "1"]) }
        }
        let server = try LoopbackServer.get()
        let echo = try await makeClient().send(Echoed(url: server.url("/echo")))
        #expect(echo.query == "q=1")
    }
}

/// The README's stub example, compiled and run as printed there.
struct StubReadmeExampleTests {
    struct Item: Decodable, Equatable, Sendable { let name: String }

    // --- README types begin ---
    enum CatalogEndpoint: StubbedEndpoint {
        case item(Int)
        var baseURL: URL { URL(string: "https://catalog.example") ?? URL(fileURLWithPath: "/") }
        var path: String {
            switch self {
            case .item(let id): "/items/\(id)"
            }
        }
        var sampleResponse: StubResponse { .json(#"{"name":"girder"}"#) }
    }

    struct GetItem: TypedRequest {
        typealias Success = Item
        let id: Int
        var request: Request { Request(endpoint: CatalogEndpoint.item(id)) }
    }
    // --- README types end ---

    @Test func theReadmeStubExampleRuns() async throws {
        // --- README example begins ---
        let stubbed = HTTPClient(transport: StubTransport(endpoints: [CatalogEndpoint.item(7)]))
        let item = try await stubbed.send(GetItem(id: 7))  // Item(name: "girder")
        // --- README example ends ---
        #expect(item == Item(name: "girder"))
    }
}
#endif
