#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Only http and https leave the process, with a method that is a token, whoever set the URL or the method: a
/// URL handed over by a server (an upload URL, a "next" link) cannot make a request write a local file or speak to
/// another protocol.
struct RequestTargetTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test(arguments: TransportKind.allCases)
    func aPostToAFileURLIsRefusedAndWritesNothing(_ kind: TransportKind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scheme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("written")
        let request = Request(MutableRequest(method: .post, url: target) |> withBody(Data("secret".utf8)))
        let sends: [() async throws -> Void] = [
            { _ = try await kind.transport().send(request) }, { _ = try await kind.client().perform(request) },
        ]
        for send in sends {
            let error = await responseError(send)
            #expect(error?.kind == .invalidRequest, "\(String(describing: error))")
            #expect(error?.reason.contains("is not http or https") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test(arguments: TransportKind.allCases)
    func otherSchemesAreRefusedBeforeAnyConnection(_ kind: TransportKind) async throws {
        for url in ["gopher://127.0.0.1:\(server.port)/_GET%20/", "ftp://127.0.0.1/", "dict://127.0.0.1/", "ws://x/"] {
            let request = Request(URL: try #require(URL(string: url)), method: .get)
            let error = await responseError { _ = try await kind.transport().send(request) }
            #expect(error?.kind == .invalidRequest, "\(url): \(String(describing: error))")
        }
        let hostless = Request(URL: try #require(URL(string: "http:///path")), method: .get)
        let error = await responseError { _ = try await kind.transport().send(hostless) }
        #expect(error?.reason.contains("has no host") == true, "\(String(describing: error))")
    }

    @Test(arguments: TransportKind.allCases)
    func aMethodOrURLSetByAURLRequestEditIsCheckedToo(_ kind: TransportKind) async throws {
        let id = UUID().uuidString
        let url = server.url("/flaky?id=\(id)&fail=0")
        let injected = Request(
            MutableRequest(url: url)
                |> withURLRequestEdit { $0.httpMethod = "GET / HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET" })
        let methodError = await responseError { _ = try await kind.client().perform(injected) }
        #expect(methodError?.kind == .invalidRequest, "\(String(describing: methodError))")
        #expect(methodError?.reason.contains("after a URLRequest edit, the method") == true)
        let redirected = Request(
            MutableRequest(url: url) |> withURLRequestEdit { $0.url = URL(fileURLWithPath: "/etc/passwd") })
        let urlError = await responseError { _ = try await kind.client().perform(redirected) }
        #expect(
            urlError?.reason.contains("after a URLRequest edit, the URL") == true, "\(String(describing: urlError))")
        #expect(try await server.count("flaky-\(id)") == 0)
    }

    @Test(arguments: ["a\r\nInjected: 1", "nul\u{0}", "tab\t", "del\u{7F}"])
    func aBasicCredentialWithAControlCharacterIsRefused(_ part: String) {
        for request in [
            Request(MutableRequest(url: server.url("/")) |> withBasicAuth(username: part, password: "p")),
            Request(MutableRequest(url: server.url("/")) |> withBasicAuth(username: "u", password: part)),
        ] {
            #expect(request.failureReason?.contains("RFC 7617 forbids control characters") == true)
            #expect(request.headers["Authorization"] == nil)
        }
    }

    @Test func aColonIsRefusedInTheUserNameOnly() {
        let user = Request(MutableRequest(url: server.url("/")) |> withBasicAuth(username: "a:b", password: "p"))
        #expect(user.failureReason?.contains("holds a colon at byte 1") == true)
        let password = Request(MutableRequest(url: server.url("/")) |> withBasicAuth(username: "a", password: "p:q"))
        #expect(password.failureReason == nil)
        #expect(password.headers["Authorization"] == "Basic " + Data("a:p:q".utf8).base64EncodedString())
    }
}
#endif
