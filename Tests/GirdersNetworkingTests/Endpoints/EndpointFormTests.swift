#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// Every natural way to declare an endpoint's members is read, and what it declares reaches the wire (Swift 6
/// mode; `GirdersSwiftCompatibilityTests` declares the same in Swift 5 mode).
struct EndpointFormTests {
    static var base: URL { (try? LoopbackServer.get().url("")) ?? URL(fileURLWithPath: "/no-server") }

    struct Payload: Encodable { let token: String }

    struct OptionalDictionary: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var method: HTTPMethod { .post }
        var parameters: [String: Any]? { ["token": "optional-dictionary"] }
    }

    struct PlainDictionary: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var method: HTTPMethod { .post }
        var parameters: [String: Any] { ["token": "dictionary"] }
    }

    struct AnyObjects: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var method: HTTPMethod { .post }
        var parameters: [String: AnyObject] { ["token": "any-objects" as NSString] }
    }

    struct Strings: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var method: HTTPMethod { .post }
        var parameters: [String: String] { ["token": "strings"] }
    }

    struct QueryItems: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var parameters: [URLQueryItem] { [URLQueryItem(name: "token", value: "items")] }
    }

    struct EncodableBody: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var method: HTTPMethod { .put }
        var parameters: Payload { Payload(token: "encodable") }
    }

    struct NoParameters: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var parameters: [String: String]? { nil }
    }

    struct Query: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var method: HTTPMethod { .post }
        var queryParameters: [String: String] { ["page": "2"] }
        var parameters: Payload? { Payload(token: "with-query") }
    }

    struct EncodableQuery: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var queryParameters: Payload { Payload(token: "in-query") }
    }

    /// GirdersSwift's README declares the base URL as an `NSURL`.
    struct FoundationURL: ServiceEndpoint {
        var baseURL: NSURL { NSURL(string: EndpointFormTests.base.absoluteString) ?? NSURL(fileURLWithPath: "/") }
        var path: String { "/echo/nsurl" }
    }

    struct OptionalURL: ServiceEndpoint {
        var baseURL: URL? { EndpointFormTests.base }
        var path: String { "/echo/optional-url" }
    }

    struct TextURL: ServiceEndpoint {
        var baseURL: String { EndpointFormTests.base.absoluteString }
        var path: String { "/echo/text-url" }
    }

    struct Tagging: RequestGenerator {
        func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
            var request = request(withMethod: method)
            request.headers["X-Generator"] = "tagging"
            return request
        }
    }

    /// A generator declared with its own type, not `any RequestGenerator`.
    struct ConcreteGenerator: ServiceEndpoint {
        var baseURL: URL { EndpointFormTests.base }
        var path: String { "/echo" }
        var requestGenerator: Tagging { Tagging() }
        var headers: [String: String]? { ["X-Endpoint": "optional-headers"] }
    }

    func echo(_ endpoint: some ServiceEndpoint) async throws -> Echo {
        try await makeClient().executeRequest(request: Request(endpoint: endpoint), as: Echo.self).bodyObject
            ?? { throw ServerError("no echo") }()
    }

    @Test func everyDeclaredParameterTypeReachesTheBody() async throws {
        #expect(try await echo(OptionalDictionary()).body == #"{"token":"optional-dictionary"}"#)
        #expect(try await echo(PlainDictionary()).body == #"{"token":"dictionary"}"#)
        #expect(try await echo(AnyObjects()).body == #"{"token":"any-objects"}"#)
        #expect(try await echo(Strings()).body == #"{"token":"strings"}"#)
        #expect(try await echo(EncodableBody()).body == #"{"token":"encodable"}"#)
        let none = try await echo(NoParameters())
        #expect(none.body.isEmpty && none.query.isEmpty)
    }

    @Test func everyDeclaredQueryTypeReachesTheQuery() async throws {
        #expect(try await echo(QueryItems()).query == "token=items")
        let both = try await echo(Query())
        #expect(both.query == "page=2")
        #expect(both.body == #"{"token":"with-query"}"#)
        #expect(try await echo(EncodableQuery()).query == "token=in-query")
    }

    @Test func everyDeclaredBaseURLTypeIsTheBase() async throws {
        #expect(try await echo(FoundationURL()).path == "/echo/nsurl")
        #expect(try await echo(OptionalURL()).path == "/echo/optional-url")
        #expect(try await echo(TextURL()).path == "/echo/text-url")
    }

    @Test func aGeneratorAndHeadersOfTheirOwnTypesAreUsed() async throws {
        let echo = try await echo(ConcreteGenerator())
        #expect(echo.header("X-Generator") == "tagging")
        #expect(echo.header("X-Endpoint") == "optional-headers")
    }
}
#endif
