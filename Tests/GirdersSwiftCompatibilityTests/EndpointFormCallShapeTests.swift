#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import Testing

// The member types a migrating app declares its endpoints with, in Swift 5 mode and GirdersSwift's accessor style:
// each is read (GirdersNetworkingTests checks the same forms in Swift 6 mode).

struct LegacyDictionaryEndpoint: ServiceEndpoint {
    var baseURL: NSURL {
        get { return NSURL(string: EchoServer.endpointBaseURL.absoluteString) ?? NSURL(fileURLWithPath: "/") }
    }
    var path: String { get { return "/echo/legacy/dictionary" } }
    var method: HTTPMethod { get { return .PUT } }
    var parameters: [String: Any]? { get { return ["id": 7, "tags": ["a", "b"]] } }
    var queryParameters: [String: String] { get { return ["v": "2"] } }
}

struct LegacyStringsEndpoint: ServiceEndpoint {
    var baseURL: URL? { get { return EchoServer.endpointBaseURL } }
    var path: String { get { return "/echo/legacy/strings" } }
    var method: String { get { return "post" } }
    var parameters: [String: String] { get { return ["name": "Ada"] } }
    var headers: [String: String]? { get { return ["X-Legacy": "yes"] } }
}

struct LegacyItemsEndpoint: ServiceEndpoint {
    var baseURL: String { get { return EchoServer.endpointBaseURL.absoluteString } }
    var path: String { get { return "/echo/legacy/items" } }
    var parameters: [URLQueryItem] { get { return [URLQueryItem(name: "page", value: "3")] } }
    var requestGenerator: SignedRequestGenerator { get { return SignedRequestGenerator() } }
}

struct EndpointFormCallShapeTests {
    func echo(_ endpoint: some ServiceEndpoint) async throws -> Echo {
        let response: Response<Data> = try await HTTPClient().executeRequest(request: Request(endpoint: endpoint))
        return try JSONDecoder().decode(Echo.self, from: response.body)
    }

    @Test func everyMemberTypeAMigratingAppDeclaresReachesTheWire() async throws {
        let dictionary = try await echo(LegacyDictionaryEndpoint())
        #expect(dictionary.method == "PUT")
        #expect(dictionary.query == "v=2")
        #expect(dictionary.body.contains("\"id\":7") && dictionary.body.contains("\"tags\":[\"a\",\"b\"]"))
        let strings = try await echo(LegacyStringsEndpoint())
        #expect(strings.method == "POST")
        #expect(strings.body == #"{"name":"Ada"}"#)
        #expect(strings.headers["x-legacy"] == ["yes"])
        let items = try await echo(LegacyItemsEndpoint())
        #expect(items.query == "page=3")
        #expect(items.headers["x-client"] == ["wallet-app"])  // SignedRequestGenerator's own generator function
    }
}
#endif
