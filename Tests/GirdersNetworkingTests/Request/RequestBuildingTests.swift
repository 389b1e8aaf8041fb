import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// Requests built from generator functions, without the network.
struct RequestBuildingTests {
    struct NewItem: Encodable {
        let name: String
        let created: Date
    }

    let base: URL

    init() throws {
        base = try #require(URL(string: "https://api.example.com/v1"))
    }

    @Test func generatorFunctionsComposeWithThePipeOperatorIntoAnImmutableRequest() {
        let request = Request(
            MutableRequest(method: .post, url: base.appendingPathComponent("items"))
                |> withJsonSupport
                |> withJSONBody(["name": "girder"])
                |> withBearerToken("t0k3n")
                |> withQueryItem("dry run", "yes")
                |> withTimeout(5))
        #expect(request.failureReason == nil)
        #expect(request.method == .post)
        #expect(request.headers["accept"] == "application/json")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["Authorization"] == "Bearer t0k3n")
        #expect(request.body == Data(#"{"name":"girder"}"#.utf8))
        #expect(request.fullURL.absoluteString == "https://api.example.com/v1/items?dry%20run=yes")
        #expect(request.timeout == 5)
    }

    @Test func girdersSwiftsInitializerKeepsTheQueryForEveryMethodAndSendsNoEmptyBody() {
        let post = Request(URL: base, method: .post, queryParameters: ["page": 2])
        #expect(post.fullURL.absoluteString == "https://api.example.com/v1?page=2")
        #expect(post.body == nil)
        #expect(post.headers["Content-Type"] == nil)

        let postWithParameters = Request(URL: base, method: .put, parameters: ["b": 1, "a": "x"])
        #expect(postWithParameters.body == Data(#"{"a":"x","b":1}"#.utf8))
        #expect(postWithParameters.headers["Content-Type"] == "application/json")

        let get = Request(URL: base, method: .get, parameters: ["ids": [1, 2], "q": "a b"])
        #expect(get.fullURL.absoluteString == "https://api.example.com/v1?ids=1&ids=2&q=a%20b")
        #expect(get.body == nil)
    }

    @Test func encodableBodiesUseTheGivenEncoderAndFailuresAreRecordedNotThrown() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let request = Request(
            MutableRequest(method: .post, url: base)
                |> withJSONBody(NewItem(name: "a", created: Date(timeIntervalSince1970: 10)), encoder: encoder))
        let object = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
        #expect(object?["created"] as? Int == 10)

        let invalid = Request(MutableRequest(method: .post, url: base) |> withJSONBody(["nan": Double.nan]))
        #expect(invalid.failureReason?.contains("cannot encode") == true)
        #expect(throws: ResponseError.self) { try invalid.validated() }

        let notJSON = Request(URL: base, method: .post, parameters: ["date": Date()])
        #expect(notJSON.failureReason?.contains("[date]") == true)
    }

    @Test func formTextAndRawBodiesCarryTheirContentType() {
        let form = Request(MutableRequest(method: .post, url: base) |> withFormBody(["q": "a+b c", "lang": "dé"]))
        #expect(form.body == Data("lang=d%C3%A9&q=a%2Bb+c".utf8))
        #expect(form.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let text = Request(MutableRequest(method: .put, url: base) |> withTextBody("hello"))
        #expect(text.headers["Content-Type"] == "text/plain; charset=utf-8")
        let raw = Request(MutableRequest(method: .put, url: base) |> withBody(Data([1, 2]), contentType: "image/png"))
        #expect(raw.body == Data([1, 2]) && raw.headers["content-type"] == "image/png")
    }

    @Test func queryItemsKeepOrderAndRepeatsAndEncodeReservedCharacters() {
        let request = Request(
            MutableRequest(url: URL(string: "https://h.example/p?fixed=1")!)
                |> withQueryItems([
                    URLQueryItem(name: "tag", value: "a&b=c"), URLQueryItem(name: "tag", value: "ü/€"),
                    URLQueryItem(name: "flag", value: nil),
                ]))
        #expect(
            request.fullURL.absoluteString == "https://h.example/p?fixed=1&tag=a%26b%3Dc&tag=%C3%BC%2F%E2%82%AC&flag")
        #expect(request.queryItems.count == 3)
    }

    @Test func headersAreCaseInsensitiveAndKeepRepeatedFields() {
        var headers: HTTPHeaders = ["Accept": "text/plain"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        headers["ACCEPT"] = "application/json"
        #expect(headers["accept"] == "application/json")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.fields.first?.name == "ACCEPT")
        headers["set-cookie"] = nil
        #expect(!headers.contains("Set-Cookie"))
        #expect(HTTPHeaders(["X-A": "1"]) == ["x-a": "1"])
    }

    @Test func basicAuthAndSessionCookiesAddHeadersOnlyForRealValues() {
        let request = Request(
            MutableRequest(url: base)
                |> withBasicAuth(username: "Test", password: "1234")
                |> withHeader("Cookie", "theme=dark")
                |> withSessionCookie(xsrfToken: "x1", sessionID: "s1")
                |> withSessionCookie(xsrfToken: "", sessionID: nil))
        #expect(request.headers["Authorization"] == "Basic VGVzdDoxMjM0")
        #expect(request.headers["X-XSRF-TOKEN"] == "x1")
        #expect(request.headers["Cookie"] == "theme=dark; JSESSIONID=s1")

        let empty = Request(MutableRequest(url: base) |> withSessionCookie(xsrfToken: nil, sessionID: ""))
        #expect(empty.headers.fields.isEmpty)
    }

    @Test func aRequestWithoutAURLOrWithANonPositiveTimeoutReportsWhy() {
        #expect(Request(MutableRequest(method: .get)).failureReason == "the request has no URL")
        #expect(Request(MutableRequest(url: base) |> withTimeout(0)).failureReason?.contains("timeout") == true)
    }

    @Test func requestsAreEquatableValues() {
        let first = Request(URL: base, method: .get, queryParameters: ["a": "1"])
        let second = Request(URL: base, method: .get, queryParameters: ["a": "1"])
        #expect(first == second)
        #expect(first != Request(URL: base, method: .delete, queryParameters: ["a": "1"]))
    }

    @Test func httpMethodHasAllNineMethodsAndGirdersSwiftsUpperCaseNames() {
        #expect(
            HTTPMethod.allCases.map(\.rawValue) == [
                "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
            ])
        #expect(HTTPMethod.GET == .get && HTTPMethod.PATCH == .patch)
        #expect(!HTTPMethod.post.isIdempotent && HTTPMethod.put.isIdempotent)
    }
}
