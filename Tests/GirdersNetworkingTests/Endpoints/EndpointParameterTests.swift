import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// The base URL of these requests; never sent.
let apiBase = URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/")

/// GirdersSwift's `parameters: Any?` and `queryParameters: Any?`, and the `Encodable` query and form functions.
struct EndpointParameterTests {
    struct Search: Encodable {
        let text: String
        let pageSize: Int
        let exact: Bool
        let tags: [String]
        let cursor: String?
    }

    struct Nested: Encodable {
        let filter: [String: String]
    }

    struct Endpoint: ServiceEndpoint {
        var method: HTTPMethod
        var parameters: Any?
        var queryParameters: Any?
        var baseURL: URL { apiBase }
        var path: String { "/items" }
    }

    func request(_ method: HTTPMethod, parameters: Any? = nil, query: Any? = nil) -> Request {
        Request(endpoint: Endpoint(method: method, parameters: parameters, queryParameters: query))
    }

    func bodyText(_ request: Request) -> String? {
        request.body.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func everyKindGirdersSwiftAcceptedBecomesABodyForAPost() {
        let anyObjects: [String: AnyObject] = ["n": 1 as AnyObject]
        #expect(bodyText(request(.post, parameters: anyObjects)) == #"{"n":1}"#)
        #expect(bodyText(request(.post, parameters: [1, "two"] as [Any])) == #"[1,"two"]"#)
        #expect(bodyText(request(.post, parameters: "plain text")) == "plain text")
        #expect(request(.post, parameters: Data([0, 255])).body == Data([0, 255]))
        let form = request(.post, parameters: [URLQueryItem(name: "a b", value: "c&d")])
        #expect(bodyText(form) == "a+b=c%26d")
        #expect(form.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let encodable = request(.post, parameters: Search(text: "t", pageSize: 2, exact: true, tags: [], cursor: nil))
        #expect(bodyText(encodable) == #"{"exact":true,"pageSize":2,"tags":[],"text":"t"}"#)
        #expect(encodable.headers["Content-Type"] == "application/json")
    }

    @Test func dictionariesQueryItemsAndEncodablesGoToTheQueryOfAGet() {
        #expect(request(.get, parameters: ["a": "1"]).fullURL.query == "a=1")
        #expect(request(.get, query: [URLQueryItem(name: "p", value: "2")]).fullURL.query == "p=2")
        let search = Search(text: "girders beam", pageSize: 20, exact: false, tags: ["x", "y"], cursor: nil)
        #expect(
            request(.get, parameters: search).fullURL.query
                == "exact=false&pageSize=20&tags=x&tags=y&text=girders%20beam")
        #expect(request(.post, query: ["q": "1"]).fullURL.query == "q=1")
    }

    @Test func anythingElseIsAnInvalidRequestNamingTheEndpointAndProperty() {
        let unsendable = request(.post, parameters: NSObject())
        #expect(unsendable.failureReason?.contains("the parameters of Endpoint are a NSObject") == true)
        let textForGet = request(.get, parameters: "text")
        #expect(textForGet.failureReason?.contains("(a GET request has no body)") == true)
        let badQuery = request(.post, query: NSObject())
        #expect(badQuery.failureReason?.contains("the queryParameters of Endpoint") == true)
        let nested = request(.get, parameters: Nested(filter: ["a": "b"]))
        #expect(
            nested.failureReason?.contains("the parameters of Endpoint: Nested has no query or form encoding") == true,
            "\(nested.failureReason ?? "")")
    }

    @Test func withQueryAndWithFormBodyFollowTheEncodersKeyStrategy() {
        let snake = JSONEncoder.girders()
        snake.keyEncodingStrategy = .convertToSnakeCase
        let search = Search(text: "a", pageSize: 5, exact: true, tags: [], cursor: "c1")
        let base = MutableRequest(method: .post, url: apiBase.appendingPathComponent("find"))
        let built = Request(base |> withQuery(search, encoder: snake) |> withFormBody(search, encoder: snake))
        #expect(built.fullURL.query == "cursor=c1&exact=true&page_size=5&text=a")
        #expect(bodyText(built) == "cursor=c1&exact=true&page_size=5&text=a")
    }
}
