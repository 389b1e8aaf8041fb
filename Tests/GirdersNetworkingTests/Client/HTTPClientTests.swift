#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// The client against the real loopback server: methods, query encoding, headers, bodies, statuses.
struct HTTPClientTests {
    let server: LoopbackServer
    let client = makeClient()

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test(arguments: HTTPMethod.allCases.filter { $0 != .head && $0 != .connect })
    func everyMethodReachesTheServerWithItsQueryAndBody(method: HTTPMethod) async throws {
        let body = method == .get ? nil : "body of \(method)"
        var mutable = MutableRequest(method: method, url: server.url("/echo")) |> withQueryItem("m", method.rawValue)
        if let body { mutable = mutable |> withTextBody(body) }
        let echo: Response<Echo> = try await client.executeRequest(request: Request(mutable))
        #expect(echo.statusCode == 200)
        #expect(echo.bodyObject?.method == method.rawValue)
        #expect(echo.bodyObject?.query == "m=\(method.rawValue)")
        #expect(echo.bodyObject?.body == body ?? "")
        #expect(echo.bodyObject?.header("Content-Type") == (body == nil ? nil : "text/plain; charset=utf-8"))
    }

    @Test func aGetWithABodyIsAClearErrorBecauseURLSessionRefusesIt() async throws {
        let request = Request(MutableRequest(method: .get, url: server.url("/echo")) |> withTextBody("x"))
        let error = await responseError { let _: Response<Data> = try await client.executeRequest(request: request) }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("body with GET"))
    }

    @Test func headHasNoBodyAndDecodesToNil() async throws {
        let response: Response<Echo> = try await client.executeRequest(
            request: Request(URL: server.url("/echo"), method: .head))
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(response.bodyObject == nil)
        #expect(response.headers["content-type"] == "application/json")
    }

    @Test func connectIsSentWithItsMethodToken() async throws {
        let response: Response<Data> = try await client.executeRequest(
            request: Request(URL: server.url("/echo"), method: .connect))
        #expect(response.statusCode == 200)
    }

    @Test func queryValuesWithSpacesUnicodeReservedCharactersAndRepeatsArriveIntact() async throws {
        let items = [
            URLQueryItem(name: "q", value: "a b"), URLQueryItem(name: "q", value: "ü€😀"),
            URLQueryItem(name: "r", value: "&=?/#+%"), URLQueryItem(name: "empty", value: ""),
        ]
        let request = Request(MutableRequest(method: .post, url: server.url("/echo?pre=1")) |> withQueryItems(items))
        let echo = try #require(try await client.executeRequest(request: request, as: Echo.self).bodyObject)
        #expect(echo.query == "pre=1&q=a%20b&q=%C3%BC%E2%82%AC%F0%9F%98%80&r=%26%3D%3F%2F%23%2B%25&empty=")
        var components = URLComponents()
        components.percentEncodedQuery = echo.query
        #expect(components.queryItems == [URLQueryItem(name: "pre", value: "1")] + items)
    }

    @Test func requestHeadersArriveAndResponseHeadersAreCaseInsensitive() async throws {
        let request = Request(
            MutableRequest(url: server.url("/status/201")) |> withHeaders(["X-One": "1", "X-Two": "zwei"])
                |> withJsonSupport)
        let echoRequest = Request(
            MutableRequest(url: server.url("/echo")) |> withHeaders(["X-One": "1", "X-Two": "zwei"]) |> withJsonSupport)
        let echo = try #require(try await client.executeRequest(request: echoRequest, as: Echo.self).bodyObject)
        #expect(echo.header("x-one") == "1" && echo.header("X-TWO") == "zwei")
        #expect(echo.header("accept") == "application/json")
        let response: Response<[String: Any]> = try await client.executeRequest(request: request)
        #expect(response.statusCode == 201)
        #expect(response.headers["x-status"] == "201" && response.headers["X-STATUS"] == "201")
        #expect(response.bodyObject?["status"] as? Int == 201)
    }

    @Test func eachBodyKindArrivesWithItsContentType() async throws {
        struct Payload: Codable, Equatable { let name: String; let when: Date }
        let payload = Payload(name: "girder", when: Date(timeIntervalSince1970: 0))
        let cases: [(MutableRequest) -> MutableRequest] = [
            withJSONBody(payload), withJSONBody(dictionary: ["n": 1]), withFormBody(["a": "1 2"]),
            withBody(Data([0, 255, 10]), contentType: "application/octet-stream"), withTextBody("ünï"),
        ]
        let expected: [(String, String)] = [
            ("application/json", #"{"name":"girder","when":"1970-01-01T00:00:00.000Z"}"#),
            ("application/json", #"{"n":1}"#),
            ("application/x-www-form-urlencoded", "a=1+2"), ("application/octet-stream", "\u{0}\u{ff}\n"),
            ("text/plain; charset=utf-8", String(data: Data("ünï".utf8), encoding: .isoLatin1) ?? ""),
        ]
        for (generator, (contentType, body)) in zip(cases, expected) {
            let request = Request(MutableRequest(method: .post, url: server.url("/echo")) |> generator)
            let echo = try #require(try await client.executeRequest(request: request, as: Echo.self).bodyObject)
            #expect(echo.header("content-type") == contentType)
            #expect(echo.body == body)
        }
    }

    @Test func informationalResponsesAreSkippedAndSuccessStatusesSucceed() async throws {
        for (path, status) in [("/status/103", 200), ("/status/100", 200), ("/status/200", 200), ("/status/202", 202)] {
            let response: Response<Data> = try await client.executeRequest(
                request: Request(URL: server.url(path), method: .get))
            #expect(response.statusCode == status)
        }
        let noContent: Response<Echo> = try await client.executeRequest(
            request: Request(URL: server.url("/status/204"), method: .delete))
        #expect(noContent.statusCode == 204 && noContent.bodyObject == nil)
    }

    @Test(arguments: [
        (304, "unacceptableStatusCode"), (400, "badRequest"), (401, "unauthorized"), (403, "forbidden"),
        (404, "notFound"), (405, "methodNotAllowed"), (406, "notAcceptable"), (408, "requestTimeout"),
        (409, "conflict"), (410, "gone"), (418, "unacceptableStatusCode"), (422, "unprocessableEntity"),
        (429, "tooManyRequests"), (500, "internalServerError"), (501, "notImplemented"), (502, "badGateway"),
        (503, "serviceUnavailable"), (504, "gatewayTimeout"),
    ])
    func unacceptableStatusesMapToTheirCaseWithStatusHeadersAndBody(status: Int, caseName: String) async throws {
        let error = await responseError {
            let _: Response<Data> = try await client.executeRequest(
                request: Request(URL: server.url("/status/\(status)"), method: .get))
        }
        let failure = try #require(error)
        #expect("\(failure)".contains("HTTP \(status)"))
        #expect(String(describing: Mirror(reflecting: failure).children.first?.label ?? "") == caseName)
        #expect(failure.statusCode == status)
        if status != 304 {
            #expect(failure.response?.headers["x-status"] == "\(status)")
            #expect(failure.response?.body == Data(#"{"status": \#(status)}"#.utf8))
        }
    }

    @Test func aFiftyMegabyteBodyGoesUpAndComesDownIntact() async throws {
        let size = 50 * 1024 * 1024
        // Above the default 32 MiB kept in memory: the request raises its own limit.
        let download: Response<Data> = try await client.executeRequest(
            request: Request(
                MutableRequest(url: server.url("/bytes?n=\(size)"))
                    |> withResponseLimits(ResponseLimits(bodyBytes: 64 << 20))))
        #expect(download.body.count == size)
        let pattern = Data((0..<256).map { UInt8($0) })
        #expect(download.body.prefix(256) == pattern && download.body.suffix(256) == pattern)

        struct Sink: Decodable { let length: Int; let sha256: String }
        let upload: Response<Sink> = try await client.executeRequest(
            request: Request(MutableRequest(method: .put, url: server.url("/sink")) |> withBody(download.body)))
        #expect(upload.bodyObject?.length == size)
        #expect(upload.bodyObject?.sha256.count == 64)
    }

    @Test func aRefusedConnectionIsCannotConnect() async throws {
        let port = try LoopbackServer.refusedPort()
        let error = await responseError {
            let _: Response<Data> = try await client.executeRequest(
                request: Request(URL: URL(string: "http://127.0.0.1:\(port)/")!, method: .get))
        }
        guard case .cannotConnect(let url, _) = error else {
            Issue.record("expected cannotConnect, got \(String(describing: error))")
            return
        }
        #expect(url?.port == port)
    }

    @Test func anUnresolvableHostIsCannotFindHost() async throws {
        let error = await responseError {
            let _: Response<Data> = try await client.executeRequest(
                request: Request(URL: URL(string: "http://no-such-host.invalid/")!, method: .get))
        }
        guard case .cannotFindHost = error else {
            Issue.record("expected cannotFindHost, got \(String(describing: error))")
            return
        }
    }

    @Test func aChallengingUnauthorizedResponseIsReportedInsteadOfHanging() async throws {
        let error = await responseError {
            let _: Response<Data> = try await client.executeRequest(
                request: Request(URL: server.url("/challenge"), method: .get))
        }
        guard case .unauthorized(let response) = error else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 401)
        #expect(response.headers["WWW-Authenticate"] == #"Basic realm="girders""#)
    }

    @Test func anIncompleteRequestFailsBeforeAnythingIsSent() async throws {
        let request = Request(
            MutableRequest(method: .post, url: server.url("/echo")) |> withJSONBody(["x": Double.infinity]))
        let error = await responseError { let _: Response<Data> = try await client.executeRequest(request: request) }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("Dictionary<String, Double>"))
    }

    #if canImport(FoundationNetworking)
    @Test func tlsCredentialsOnURLSessionOnLinuxAreAnUnsupportedErrorNotASilentNoOp() async throws {
        // FoundationNetworking cannot present them; CurlTransport, the default on Linux, can.
        let request = Request(
            MutableRequest(url: server.url("/echo"))
                |> withSSLCredentials(TLSCredentials(anchorCertificates: [Data([1])])))
        let foundation = HTTPClient(transport: URLSessionTransport(configuration: .default))
        let error = await responseError {
            let _: Response<Data> = try await foundation.executeRequest(request: request)
        }
        guard case .unsupported(let feature) = error else {
            Issue.record("expected unsupported, got \(String(describing: error))")
            return
        }
        #expect(feature.contains("TLS credentials"))
    }
    #endif
}
#endif
