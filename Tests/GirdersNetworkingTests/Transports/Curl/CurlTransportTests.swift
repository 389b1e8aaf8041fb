#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
#if os(Linux)
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// What CurlTransport does beyond the shared behaviour tests, which run on it too (it is Linux's default).
struct CurlTransportTests {
    let server: LoopbackServer
    let client = HTTPClient(transport: CurlTransport(), cookieJar: nil)

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test func curlIsTheDefaultTransportOnLinux() {
        #expect(HTTPClient().transport is CurlTransport)
    }

    @Test func everyRepeatedResponseHeaderLineReachesTheCaller() async throws {
        let response = try await client.perform(Request(URL: server.url("/repeated"), method: .get))
        #expect(
            response.headers.values(for: "Set-Cookie")
                == ["first=1; Path=/", "second=2; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT"])
        #expect(response.headers.values(for: "link") == ["</a>; rel=next", "</b>; rel=last"])
    }

    @Test func anOddButValidHeadIsReadFieldByField() async throws {
        // The engine's thread only copies header bytes and looks up the length; the caller parses the fields.
        let totals = LockedList<Int64?>()
        let options = TransferOptions(progress: { totals.append($0.totalBytes) })
        let response = try await client.perform(Request(URL: server.url("/odd-head"), method: .get), options: options)
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello")
        #expect(response.headers.contains("X-Interim") == false, "the interim 100's fields are not the response's")
        #expect(response.headers["content-length"] == "5")
        #expect(response.headers.fields.first?.name == "content-LENGTH", "names arrive as the server wrote them")
        #expect(response.headers["X-Folded"] == "first second")
        #expect(response.headers["X-Empty"] == "")
        #expect(totals.values.last == 5, "the length is found whatever its case")
        let folded = LockedList<Int64?>()
        let foldedResponse = try await client.perform(
            Request(URL: server.url("/odd-head?folded-length"), method: .get),
            options: TransferOptions(progress: { folded.append($0.totalBytes) }))
        #expect(foldedResponse.headers["Content-Length"] == "5 5")
        #expect(folded.values.last == .some(nil), "a folded length is no length")
        #expect(String(decoding: foldedResponse.body, as: UTF8.self) == "hello")
    }

    /// Each header line is written into a temporary buffer sized from its parts (on the stack when small) before
    /// libcurl copies it: an empty value, a value of 20,000 bytes (past any stack buffer) and one with UTF-8 beyond
    /// ASCII arrive byte for byte, and the fields after them too.
    @Test func headerLinesOfEverySizeArriveByteForByte() async throws {
        let long = String(repeating: "0123456789", count: 2_000)
        let request = Request(
            MutableRequest(method: .get, url: server.url("/echo"))
                |> withHeader("X-Empty", "") |> withHeader("X-Long", long) |> withHeader("X-Text", "Grüße, 👋")
                |> withHeader("X-After", "last"))
        let response: Response<Echo> = try await client.executeRequest(request: request)
        let echo = try #require(response.bodyObject)
        #expect(echo.header("X-Empty") == "")
        #expect(echo.header("X-Long") == long)
        // The echo server (Python's http.server) reads each byte of a field as ISO-8859-1.
        let bytesAsLatin1 = String(String.UnicodeScalarView("Grüße, 👋".utf8.map { Unicode.Scalar($0) }))
        #expect(echo.header("X-Text") == bytesAsLatin1)
        #expect(echo.header("X-After") == "last")
    }

    @Test func aFileBodyGoesOutWithItsLengthNotChunked() async throws {
        let file = try temporaryFolder().appendingPathComponent("body.bin")
        try await writePatternFile(file, megabytes: 3)
        let request = Request(MutableRequest(method: .put, url: server.url("/echo")) |> withBodyFile(file))
        let response: Response<Echo> = try await client.executeRequest(request: request)
        #expect(response.bodyObject?.method == "PUT")
        #expect(response.bodyObject?.header("Content-Length") == "\(3 << 20)")
        #expect(response.bodyObject?.header("Transfer-Encoding") == nil)
        #expect(response.bodyObject?.body_length == 3 << 20)
    }

    @Test func aPostWithoutABodySendsAnEmptyOneAndNoExpectation() async throws {
        let response: Response<Echo> = try await client.executeRequest(
            request: Request(MutableRequest(method: .post, url: server.url("/echo"))))
        #expect(response.bodyObject?.method == "POST")
        #expect(response.bodyObject?.header("Content-Length") == "0")
        #expect(response.bodyObject?.header("Expect") == nil)
    }

    @Test func aResponseHeadOfMoreThan256KiBIsRefusedNotStored() async throws {
        let fine = try await client.perform(Request(URL: server.url("/many-headers?n=100"), method: .get))
        #expect(fine.headers.values(for: "X-Filler-99") == [String(repeating: "x", count: 48)])
        let manyFields = ResponseLimits(headerFields: 100_000)
        let error = await responseError {
            _ = try await client.perform(
                Request(MutableRequest(url: server.url("/many-headers?n=20000")) |> withResponseLimits(manyFields)))
        }
        #expect(error?.exceededLimit?.limit == .headerBytes, "\(String(describing: error))")
        #expect(error?.reason.contains("ResponseLimits.headerBytes), 262144") == true)
    }

    @Test func aRefusedConnectionIsCannotConnect() async throws {
        let port = try LoopbackServer.refusedPort()
        let error = await responseError {
            _ = try await client.perform(Request(URL: server.url("/").withPort(port), method: .get))
        }
        #expect(error?.kind == .cannotConnect, "\(String(describing: error))")
    }

    @Test func aCancelledDownloadStopsAtOnceAndLeavesNoFile() async throws {
        let folder = try temporaryFolder()
        let destination = folder.appendingPathComponent("slow.bin")
        let started = LockedList<Int64>()
        let name = UUID().uuidString
        let task = Task {
            try await client.download(
                Request(URL: server.url("/drip?bytes=2000&interval_ms=10&hold=1&name=\(name)"), method: .get),
                to: destination
            ) { started.append($0.completedBytes) }
        }
        try await waitUntil { !started.values.isEmpty }
        task.cancel()
        let error = await responseError { _ = try await task.value }
        #expect(error?.isCancellation == true)
        // Stopped, not merely abandoned: the server sees the connection go away (it holds the body for as long as
        // the transfer goes on).
        try await waitUntil(asking: { (try? await server.count("drip-closed-\(name)")) == 1 })
        #expect(try await server.count("drip-closed-\(name)") == 1)
        #expect(try fileNames(in: folder).isEmpty)
    }

    @Test func aStallingBodyTimesOutAndLeavesNoFile() async throws {
        let folder = try temporaryFolder()
        let destination = folder.appendingPathComponent("stall.bin")
        let error = await responseError {
            _ = try await client.download(
                Request(MutableRequest(url: server.url("/fault/stall?n=4000")) |> withTimeout(0.3)),
                to: destination)
        }
        #expect(error?.kind == .timedOut, "\(String(describing: error))")
        #expect(try fileNames(in: folder).isEmpty)
    }
}

extension URL {
    /// The same URL on another port.
    func withPort(_ port: Int) -> URL {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        components?.port = port
        return components?.url ?? self
    }
}
#endif
#endif
