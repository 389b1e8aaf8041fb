#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// Nothing a caller supplies reaches the wire as something else: no injected header, no dropped header, no path
/// above the base URL, no extra multipart field, no body on a redirected GET, no extra cookie.
struct WireSafetyTests {
    let server: LoopbackServer
    let client = makeClient()

    init() throws {
        server = try LoopbackServer.get()
    }

    /// Sends `request` to a counting route and returns the error and how many requests reached the server.
    func attempt(_ transform: @escaping RequestTransform) async throws -> (ResponseError?, Int) {
        let id = UUID().uuidString
        let request = Request(MutableRequest(url: server.url("/flaky?id=\(id)&fail=0")) |> transform)
        let error = await responseError { _ = try await client.executeRequest(request: request) as Response<Data> }
        return (error, try await server.count("flaky-\(id)"))
    }

    @Test func aHeaderNameWithCRLFIsAnInvalidRequestAndNothingIsSent() async throws {
        let (error, sent) = try await attempt(withHeader("X-Test\r\nInjected", "1"))
        #expect(sent == 0)
        #expect(error?.reason.contains(#"the header name "X-Test\r\nInjected" holds a carriage return (CR)"#) == true)
    }

    @Test(arguments: ["Bearer a\r\nInjected: 1", "line\nbreak", "nul\u{0}byte", "del\u{7F}"])
    func aHeaderValueWithAControlCharacterIsAnErrorNotDropped(value: String) async throws {
        let (error, sent) = try await attempt(withHeader("X-Value", value))
        #expect(sent == 0)
        #expect(error?.reason.contains(#"the value of the header "X-Value" holds"#) == true)
        #expect(error?.reason.contains(value) == false)  // values may be secrets: never repeated
    }

    @Test func aBearerTokenWithALineBreakIsAnErrorNotARequestWithoutAuthorization() async throws {
        let (error, sent) = try await attempt(withBearerToken("token\r\n"))
        #expect(sent == 0)
        #expect(error?.reason.contains(#"header "Authorization""#) == true)
    }

    @Test(arguments: ["Bad Name", "X:Y", "", "Ünïcode", "X\u{0}"])
    func headerNamesThatAreNotTokensAreRefused(name: String) {
        let request = Request(MutableRequest(url: server.url("/echo")) |> withHeader(name, "1"))
        #expect(request.failureReason?.hasPrefix(name.isEmpty ? "a header name is empty" : "the header name") == true)
    }

    @Test func aOneMebibyteHeaderValueSaysWhatIsWrong() async throws {
        let (error, sent) = try await attempt(withHeader("X-Big", String(repeating: "a", count: 1 << 20)))
        #expect(sent == 0)
        let expected = #"invalid request: the value of the header "X-Big" is 1048576 bytes; at most 65536 are sent"#
        #expect(error?.reason == expected)
    }

    @Test func validHeadersStillGoOutAsWritten() async throws {
        let request = Request(
            MutableRequest(url: server.url("/echo")) |> withHeader("X-Token_1.~!", "tab\tand ünïcode")
                |> withBearerToken("abc"))
        let response: Response<Echo> = try await client.executeRequest(request: request)
        #expect(response.bodyObject?.header("x-token_1.~!") != nil)
        #expect(response.bodyObject?.header("authorization") == "Bearer abc")
    }

    @Test func aHeaderSetByAURLRequestEditCannotInjectAnotherHeader() async throws {
        let request = Request(
            MutableRequest(url: server.url("/echo"))
                |> withURLRequestEdit { $0.setValue("1\r\nInjected: 2", forHTTPHeaderField: "X-Edited") })
        // Foundation drops the field on Linux; where it keeps it, the transport refuses the request.
        let error = await responseError {
            let response: Response<Echo> = try await client.executeRequest(request: request)
            #expect(response.bodyObject?.header("injected") == nil)
        }
        #expect(error == nil || error?.reason.contains(#"after a URLRequest edit, the value of the header"#) == true)
    }

    /// Found by the `multipart` fuzz target: a NUL in a field name went raw into the part's header, where a
    /// server reading C strings would end the name.
    @Test func aMultipartNameWithNULOrALineBreakStaysInsideItsQuotes() async throws {
        var form = MultipartFormData(boundary: "b")
        form.append("v", name: "a\u{0}b\r\nX-Injected: 1\"")
        let body = String(decoding: try form.encodedData(), as: UTF8.self)
        #expect(body.contains(#"Content-Disposition: form-data; name="a%00b%0D%0AX-Injected: 1%22""#))
        #expect(!body.utf8.contains(0))
        struct Part: Decodable { let name: String }
        let parts = try await client.executeRequest(
            request: Request(MutableRequest(method: .post, url: server.url("/multipart")) |> withMultipartBody(form)),
            as: [Part].self
        ).bodyObject
        #expect(parts?.map(\.name) == ["a%00b%0D%0AX-Injected: 1%22"])
    }

    @Test func aSessionIDWithASemicolonAddsNoCookie() async throws {
        let (error, sent) = try await attempt(withSessionCookie(xsrfToken: nil, sessionID: "abc; admin=1"))
        #expect(sent == 0)
        #expect(error?.reason.hasPrefix("invalid request: the session id cannot be a cookie value") == true)
        let fine = Request(
            MutableRequest(url: server.url("/echo")) |> withSessionCookie(xsrfToken: "x", sessionID: "A1B2-c3"))
        #expect(fine.headers["Cookie"] == "JSESSIONID=A1B2-c3")
    }
}

/// Endpoint paths stay under the base URL; caller-supplied values go in as one segment.
struct EndpointPathSafetyTests {
    struct Endpoint: ServiceEndpoint {
        let path: String
        var baseURL: URL { URL(string: "https://api.example.com/api/v1") ?? URL(fileURLWithPath: "/") }
    }

    @Test(arguments: [
        "/users/42/../../../admin", "/users/./42", "/users/%2e%2E/admin", "..", "/a/..",
        // A combining mark after `/`, `?` or `#` makes one Character of the two; the bytes still split the path.
        "/users/42/../\u{301}../\u{301}admin", "/a/..?\u{301}x", "/a/..#\u{301}", "/a/%2e%2e/\u{20DD}b",
    ])
    func dotSegmentsInAnEndpointPathAreAnInvalidRequest(path: String) {
        let request = Request(endpoint: Endpoint(path: path))
        #expect(request.failureReason?.contains("holds the dot segment") == true)
        #expect(request.failureReason?.contains("/api/v1") == true)
    }

    @Test(arguments: [
        "/users/a..b", "/users/42?next=../x", "/files/.hidden", "/users/42#..", "/a/.../b", "/a/%2e%2e%2e", "/a/%2",
        "/a/%2f", "/a/.%2",
    ])
    func dotsThatAreNotSegmentsAreFine(path: String) {
        #expect(Request(endpoint: Endpoint(path: path)).failureReason == nil)
    }

    @Test func pathSegmentKeepsTheShapeOfThePath() {
        #expect(pathSegment("a/b?c#d%e f") == "a%2Fb%3Fc%23d%25e%20f")
        #expect(pathSegment(42) == "42")
        #expect(pathSegment("ü") == "%C3%BC")
        #expect(pathSegment("a..b") == "a..b")
        let sneaky = Request(endpoint: Endpoint(path: "/users/\(pathSegment("../../admin"))"))
        #expect(sneaky.url.absoluteString == "https://api.example.com/api/v1/users/..%2F..%2Fadmin")
        let dotDot = Request(endpoint: Endpoint(path: "/users/\(pathSegment(".."))"))
        #expect(dotDot.failureReason?.contains("holds the dot segment '%2E%2E'") == true)
    }
}

/// Multipart bodies: boundaries, content that holds the boundary, hostile names, redirects of streamed forms.
struct MultipartSafetyTests {
    @Test(arguments: ["", String(repeating: "b", count: 71), "bad\r\nboundary", "trailing ", "quote\"", "ü"])
    func anInvalidBoundaryIsAnInvalidRequest(boundary: String) {
        var form = MultipartFormData(boundary: boundary)
        form.append("value", name: "field")
        #expect(throws: ResponseError.self) { try form.encodedData() }
        let request = Request(MutableRequest(method: .post, url: URL(fileURLWithPath: "/x")) |> withMultipartBody(form))
        #expect(request.failureReason?.hasPrefix("the multipart boundary must be 1 to 70") == true)
    }

    @Test func validBoundariesOfSeventyCharactersAndRFCPunctuationWork() throws {
        var form = MultipartFormData(boundary: String(repeating: "z", count: 60) + "'()+_,-./")
        form.append("value", name: "field")
        #expect(try form.encodedData().count > 0)
    }

    @Test(arguments: ["x\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"admin\"\r\n\r\n1", "--BOUNDARY--"])
    func contentHoldingTheDelimiterCannotAddAField(value: String) {
        var form = MultipartFormData(boundary: "BOUNDARY")
        form.append(value, name: "comment")
        let request = Request(MutableRequest(method: .post, url: URL(fileURLWithPath: "/x")) |> withMultipartBody(form))
        #expect(request.failureReason?.contains(#"the multipart part "comment" contains the boundary"#) == true)
    }

    @Test func aFileHoldingTheDelimiterAcrossChunksIsFoundBeforeAnythingIsSent() async throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("upload.bin")
        // The delimiter straddles the 1 MiB read chunks.
        var bytes = Data(repeating: 0x61, count: (1 << 20) - 5)
        bytes.append(Data("\r\n--BOUNDARY".utf8))
        try bytes.write(to: file)
        var form = MultipartFormData(boundary: "BOUNDARY")
        form.append(fileAt: file, name: "upload")
        let server = try LoopbackServer.get()
        let id = UUID().uuidString
        let request = Request(
            MutableRequest(method: .post, url: server.url("/flaky?id=\(id)&fail=0")) |> withMultipartBody(form))
        let error = await responseError {
            _ = try await makeClient().executeRequest(request: request) as Response<Data>
        }
        #expect(error?.reason.contains(#"the multipart part "upload" contains the boundary"#) == true)
        #expect(try await server.count("flaky-\(id)") == 0)
    }

    @Test func backslashesAndQuotesInNamesCannotEndTheQuotedString() throws {
        var form = MultipartFormData(boundary: "B")
        form.append("1", name: #"name\"#)
        form.append(Data("x".utf8), name: "f", filename: #"C:\dir\a".txt"#)
        let text = String(decoding: try form.encodedData(), as: UTF8.self)
        #expect(text.contains(#"name="name\\""#))
        #expect(text.contains(#"filename="C:\\dir\\a%22.txt""#))
    }

    @Test func aStreamedMultipartPostAnswered303IsFollowedByAGetWithoutBody() async throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("photo.jpg")
        try Data(repeating: 7, count: 10_000).write(to: file)
        var form = MultipartFormData()
        form.append("caption", name: "title")
        form.append(fileAt: file, name: "photo", contentType: "image/jpeg")
        let server = try LoopbackServer.get()
        let target = QueryText.encode(server.url("/echo").absoluteString)
        let request = Request(
            MutableRequest(method: .post, url: server.url("/redirect/303?to=\(target)")) |> withMultipartBody(form))
        let response: Response<Echo> = try await makeClient().executeRequest(request: request)
        #expect(response.bodyObject?.method == "GET")
        #expect(response.bodyObject?.body_length == 0)
        #expect(response.bodyObject?.header("content-type") == nil)
    }
}
#endif
