#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTrema
import Testing

// GirdersSwift's members that Girders keeps deprecated: each still does what it did.

@available(*, deprecated, message: "a GirdersSwift generator function written with the old MutableRequest members")
func withLegacyFields(_ request: MutableRequest) -> MutableRequest {
    var request = request
    request.updateHTTPHeaderFields(headerFields: ["X-Legacy": "1"])
    if request.httpMethod() == .GET {
        request.updateParameters(parameters: ["page": 1])
        request.updateParameters(parameters: ["page": 2, "size": 10])
    } else {
        request.updateParameters(parameters: ["name": "Ada"])
        request.updateParameters(parameters: ["email": "ada@example.com"])
    }
    return request
}

/// A handler of the app's own, put first by `HTTPClient(handlers:)`.
struct ShoutingHandler: ResponseHandler {
    func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
        guard T.self == String.self else { return .notHandled }
        return .handled(String(decoding: response.body, as: UTF8.self).uppercased() as? T)
    }
}

struct DeprecatedShimTests {
    let server: EchoServer

    init() throws {
        server = try EchoServer.shared.get()
    }

    func echo(_ request: Request) async throws -> Echo {
        let response: Response<Data> = try await HTTPClient().executeRequest(request: request)
        return try JSONDecoder().decode(Echo.self, from: response.body)
    }

    func url(_ path: String) -> URL { server.baseURL.appendingPathComponent(path) }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated members")
    @Test func oldMutableRequestMembersMergeParametersAndSetHeaders() async throws {
        let get = try await echo(Request(MutableRequest(method: .GET, url: url("echo/list")) |> withLegacyFields))
        #expect(get.headers["x-legacy"] == ["1"])
        #expect(get.query == "page=2&size=10", "later keys win, as GirdersSwift merged them")
        let post = try await echo(Request(MutableRequest(method: .POST, url: url("echo/new")) |> withLegacyFields))
        let body = try JSONSerialization.jsonObject(with: Data(post.body.utf8)) as? [String: String]
        #expect(body == ["name": "Ada", "email": "ada@example.com"])
    }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated members")
    @Test func updateQueryParametersReplacesTheQueryAndRefusesWhatItCannotRead() async throws {
        var request = MutableRequest(method: .POST, url: url("echo/q"))
        request.updateQueryParameters(parameters: ["a": "1"])
        request.updateQueryParameters(parameters: [URLQueryItem(name: "b", value: "2")])
        #expect(try await echo(Request(request)).query == "b=2")
        request.updateQueryParameters(parameters: nil)
        #expect(request.queryItems.isEmpty)
        request.updateQueryParameters(parameters: NSObject())
        #expect(Request(request).failureReason?.contains("updateQueryParameters(parameters:)") == true)
    }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated members")
    @Test func theAdditionalHeadersInitialiserAddsThemToTheDefaults() async throws {
        let request = Request(URL: url("echo/h"), method: .GET, additionalHeaders: ["X-Trace": "t1"])
        let echo = try await echo(request)
        #expect(echo.headers["x-trace"] == ["t1"])
        #expect(echo.headers["accept"] == ["application/json"])
    }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated members")
    @Test func handlersGivenToTheClientAreAskedFirst() async throws {
        let client = HTTPClient(handlers: [ShoutingHandler()])
        let response: Response<String> = try await client.executeRequest(request: Request(URL: url("status/200")))
        #expect(response.bodyObject == "{\"STATUS\": 200}")
        let data: Response<Data> = try await client.executeRequest(request: Request(URL: url("status/200")))
        #expect(data.bodyObject == Data("{\"status\": 200}".utf8), "the standard chain still follows")
    }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated members")
    @Test func responsesBuildAndReadAsInGirdersSwift() {
        let response = Response<String>(
            statusCode: 201, body: Data("ok".utf8), bodyObject: "ok", responseHeaders: ["ETag": "\"v1\"", 7: "x"],
            url: URL(string: "https://example.com/items/1"))
        #expect(response.statusCode == 201)
        #expect(response.headers["etag"] == "\"v1\"")
        #expect(response.responseHeaders["ETag"] as? String == "\"v1\"")
        #expect(response.responseHeaders.count == 1, "a header that is not a string pair is dropped")
    }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated members")
    @Test func translateWithABundleReadsThatBundlesMessagesTable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("girders-compat-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lproj = folder.appendingPathComponent("en.lproj")
        try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
        try Data("\"greeting\" = \"Hello %@\";\n".utf8).write(to: lproj.appendingPathComponent("messages.strings"))
        let bundle = try #require(Bundle(path: folder.path))
        #expect(translate("greeting", "Ada", bundle: bundle) == "Hello Ada")
        #expect(translate("missing", bundle: bundle) == "?missing?")
    }
}
#endif
