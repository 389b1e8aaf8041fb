#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
#if os(Linux)
import Foundation
import GirdersTestProcesses
import GirdersNetworking
import GirdersTestServers
import Testing

/// CurlTransport presents ``TLSCredentials``, which FoundationNetworking cannot: trust anchors for a private CA and
/// a PKCS#12 client identity, against a Python HTTPS server that requires a client certificate.
@Suite(.serialized, .requires(.openssl))
struct CurlTLSTests {
    /// The server, its folder of certificates, and its port.
    final class TLSServer {
        let folder: URL
        let port: Int
        private let process: ChildProcess
        private let stdin: FileHandle

        init() throws {
            folder = try temporaryFolder()
            // It makes its certificates with the openssl command before it prints its port.
            (process, port, stdin) = try PythonServer.start("tls_server", arguments: [folder.path])
        }

        deinit {
            try? stdin.close()
            process.waitUntilExit()
        }

        var url: URL { URL(string: "https://127.0.0.1:\(port)/who") ?? URL(fileURLWithPath: "/") }

        func file(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
    }

    struct Who: Decodable {
        let client: String?
        /// The ALPN protocols the client offered in its TLS handshake.
        let alpn: [String]
    }

    let server: TLSServer
    let client = HTTPClient(transport: CurlTransport())

    init() throws {
        server = try TLSServer()
    }

    func request(_ credentials: TLSCredentials) -> Request {
        Request(MutableRequest(url: server.url) |> withSSLCredentials(credentials))
    }

    @Test func aClientIdentityAndAPrivateAnchorReachTheServer() async throws {
        let credentials = TLSCredentials(
            anchorCertificates: [try server.file("ca.der")],
            clientIdentity: .init(pkcs12: try server.file("client.p12"), password: "secret"))
        let response: Response<Who> = try await client.executeRequest(request: request(credentials))
        #expect(response.bodyObject?.client == "girders-client")
    }

    @Test func http2IsOfferedByALPNBesideHTTP1() async throws {
        // libcurl speaks HTTP/2 when the server picks it; this server picks HTTP/1.1, so the exchange still works.
        let credentials = TLSCredentials(
            anchorCertificates: [try server.file("ca.der")],
            clientIdentity: .init(pkcs12: try server.file("client.p12"), password: "secret"))
        let response: Response<Who> = try await client.executeRequest(request: request(credentials))
        #expect(response.bodyObject?.alpn == ["h2", "http/1.1"])
    }

    @Test(.requires(.nginx))
    func aServerThatPicksHTTP2GetsHTTP2() async throws {
        // nginx (Debian's nginx-light, installed by .ci/run) with this server's certificate picks h2 by ALPN and
        // answers with the protocol each request arrived in; two requests at once both arrive over HTTP/2.
        let nginx = try PythonServer.start("nginx_h2", arguments: [server.folder.path])
        defer {
            try? nginx.stdin.close()
            nginx.process.waitUntilExit()
        }
        guard let url = URL(string: "https://127.0.0.1:\(nginx.port)/protocol") else { return }
        let client = self.client
        let request = Request(
            MutableRequest(url: url)
                |> withSSLCredentials(TLSCredentials(anchorCertificates: [try server.file("ca.der")])))
        async let first = client.perform(request)
        async let second = client.perform(request)
        let bodies = try await [first, second].map { String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies == ["HTTP/2.0", "HTTP/2.0"])
    }

    /// Over https to an HTTP/1.1 origin too, a request held by the server delays no other, and a burst opens its
    /// connections at once (the first request's handshake tells libcurl the origin does not multiplex).
    @Test func overHTTPSToAnHTTP1OriginNoRequestWaitsForAnotherAndABurstGoesAtOnce() async throws {
        let credentials = TLSCredentials(
            anchorCertificates: [try server.file("ca.der")],
            clientIdentity: .init(pkcs12: try server.file("client.p12"), password: "secret"))
        let port = server.port
        let gate: @Sendable (String, Double) throws -> Request = { path, timeout in
            let url = URL(string: "https://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
            return Request(MutableRequest(url: url) |> withSSLCredentials(credentials) |> withTimeout(timeout))
        }
        let name = UUID().uuidString
        let client = HTTPClient(transport: CurlTransport())
        let control = HTTPClient(transport: CurlTransport())
        let held = Task { try await client.perform(try gate("/hold?name=\(name)", 90)) }
        try await waitUntil(asking: {
            (try? await control.perform(try gate("/arrivals?name=\(name)", 60)).body) == Data("1".utf8)
        })
        let quick: Response<Who> = try await client.executeRequest(request: gate("/who", 20))
        #expect(quick.bodyObject?.client == "girders-client")
        _ = try await control.perform(try gate("/release?name=\(name)", 60))
        #expect(try await held.value.body == Data("released".utf8))

        let burst = UUID().uuidString
        let fresh = HTTPClient(transport: CurlTransport())  // its first burst, scout included
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try await fresh.perform(try gate("/barrier?name=\(burst)&n=8", 60)).statusCode }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
    }

    @Test func aTLSExchangeIsMeasuredWithItsHandshake() async throws {
        let recorder = MetricsRecorder()
        let client = HTTPClient(transport: CurlTransport(), monitors: [recorder])
        let credentials = TLSCredentials(
            anchorCertificates: [try server.file("ca.der")],
            clientIdentity: .init(pkcs12: try server.file("client.p12"), password: "secret"))
        _ = try await client.perform(request(credentials))
        let metrics = try #require(recorder.metrics.values.first)
        #expect(try #require(metrics.secureConnection) > .zero)
        #expect(try #require(metrics.connect) > .zero)
        #expect(metrics.networkProtocol == .http1_1)
        #expect(metrics.reusedConnection == false)
    }

    @Test(.requires(.nginx))
    func anHTTP2ExchangeIsMeasuredAsH2AndTheNextOneReusesItsConnection() async throws {
        let nginx = try PythonServer.start("nginx_h2", arguments: [server.folder.path])
        defer {
            try? nginx.stdin.close()
            nginx.process.waitUntilExit()
        }
        guard let url = URL(string: "https://127.0.0.1:\(nginx.port)/protocol") else { return }
        let recorder = MetricsRecorder()
        let client = HTTPClient(transport: CurlTransport(), monitors: [recorder])
        let request = Request(
            MutableRequest(url: url)
                |> withSSLCredentials(TLSCredentials(anchorCertificates: [try server.file("ca.der")])))
        _ = try await client.perform(request)
        _ = try await client.perform(request)
        let measured = recorder.metrics.values
        try #require(measured.count == 2)
        #expect(measured.map(\.networkProtocol) == [.http2, .http2])
        #expect(measured.map(\.reusedConnection) == [false, true])
        #expect(measured[0].secureConnection != nil && measured[1].secureConnection == nil)
    }

    @Test(.requires(.nginx))
    func sixteenParallelRequestsToAnHTTP2OriginShareOneConnection() async throws {
        // Without CURLOPT_PIPEWAIT libcurl opened about ten connections for the first burst before learning that
        // the server speaks h2; with it, every request waits for the first connection and multiplexes on it.
        let nginx = try PythonServer.start("nginx_h2", arguments: [server.folder.path])
        defer {
            try? nginx.stdin.close()
            nginx.process.waitUntilExit()
        }
        guard let url = URL(string: "https://127.0.0.1:\(nginx.port)/connection") else { return }
        let client = HTTPClient(transport: CurlTransport())
        let request = Request(
            MutableRequest(url: url)
                |> withSSLCredentials(TLSCredentials(anchorCertificates: [try server.file("ca.der")])))
        let connections = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask { String(decoding: try await client.perform(request).body, as: UTF8.self) }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(connections.count == 1, "connections: \(connections.sorted())")
    }

    @Test func withoutTheAnchorTheServerIsNotTrusted() async throws {
        let credentials = TLSCredentials(
            anchorCertificates: [], clientIdentity: .init(pkcs12: try server.file("client.p12"), password: "secret"))
        let error = await responseError {
            let _: Response<Who> = try await client.executeRequest(request: request(credentials))
        }
        guard case .transport(_, let code, _) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == URLError.serverCertificateUntrusted.rawValue)
    }

    @Test func aPinnedServerKeyConnectsAndAServerWithAnotherKeyIsRefused() async throws {
        // Two certificates on loopback: the server's (its pin, listed after a backup pin) and the client's (a key the
        // server does not have). The chain is judged as usual; the pin narrows it to the server's own key.
        let serverPin = String(decoding: try server.file("server.pin"), as: UTF8.self)
        let otherPin = String(decoding: try server.file("client.pin"), as: UTF8.self)
        let identity = TLSCredentials.ClientIdentity(pkcs12: try server.file("client.p12"), password: "secret")
        let anchors = [try server.file("ca.der")]
        let pinned = TLSCredentials(
            anchorCertificates: anchors, clientIdentity: identity, publicKeyPins: [otherPin, "sha256//" + serverPin])
        let response: Response<Who> = try await client.executeRequest(request: request(pinned))
        #expect(response.bodyObject?.client == "girders-client")
        let wrong = TLSCredentials(anchorCertificates: anchors, clientIdentity: identity, publicKeyPins: [otherPin])
        let error = await responseError {
            let _: Response<Who> = try await client.executeRequest(request: request(wrong))
        }
        guard case .transport(_, let code, let reason) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == URLError.serverCertificateUntrusted.rawValue)
        #expect(reason.hasPrefix("the public key of 127.0.0.1 matches none of the pinned keys"), "\(reason)")
    }

    @Test(.requires(.websockets)) func anUpgradeOverTLSPresentsTheClientIdentityAndHoldsToThePins() async throws {
        // PyPI's websockets with this server's certificate, requiring a client certificate. (URLSessionTransport on
        // Linux refuses TLS credentials for every request, WebSockets included, as FoundationNetworking cannot.)
        let kind = TransportKind.curl
        let secure = try PythonServer.start("websocket_server", arguments: ["--tls", server.folder.path])
        defer {
            try? secure.stdin.close()
            secure.process.waitUntilExit()
        }
        let serverPin = String(decoding: try server.file("server.pin"), as: UTF8.self)
        let otherPin = String(decoding: try server.file("client.pin"), as: UTF8.self)
        let identity = TLSCredentials.ClientIdentity(pkcs12: try server.file("client.p12"), password: "secret")
        let anchors = [try server.file("ca.der")]
        let url = try #require(URL(string: "https://127.0.0.1:\(secure.port)/echo"))
        func request(_ pins: [String]) -> Request {
            // A WebSocket's opening handshake written by hand (RFC 6455, 1.3's sample key).
            var request = MutableRequest(url: url)
            request.headers["Upgrade"] = "websocket"
            request.headers["Connection"] = "Upgrade"
            request.headers["Sec-WebSocket-Version"] = "13"
            request.headers["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
            return Request(
                request
                    |> withSSLCredentials(
                        TLSCredentials(anchorCertificates: anchors, clientIdentity: identity, publicKeyPins: pins)))
        }
        let upgrade = try await kind.client().upgrade(request([otherPin, serverPin]))
        #expect(upgrade.response.statusCode == 101)
        #expect(upgrade.response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        await upgrade.connection.close()
        let error = await #expect(throws: ResponseError.self) {
            _ = try await kind.client().upgrade(request([otherPin]))
        }
        guard case .transport(_, let code, let reason)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == URLError.serverCertificateUntrusted.rawValue)
        #expect(reason.hasPrefix("the public key of 127.0.0.1 matches none of the pinned keys"), "\(reason)")
    }

    @Test(arguments: TransportKind.allCases)
    func anUntrustedServerIsTheSameErrorOnEveryTransport(_ kind: TransportKind) async throws {
        // No credentials at all: the system's roots do not know the test CA.
        let error = await responseError {
            _ = try await kind.client().perform(Request(URL: server.url, method: .get))
        }
        guard case .transport(_, let code, _) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == URLError.serverCertificateUntrusted.rawValue, "\(error?.reason ?? "")")
    }

    @Test func withoutAClientIdentityTheServerRefusesTheConnection() async throws {
        let credentials = TLSCredentials(anchorCertificates: [try server.file("ca.der")])
        let error = await responseError {
            let _: Response<Who> = try await client.executeRequest(request: request(credentials))
        }
        #expect(error != nil)
        #expect(error?.response == nil, "no response without a client certificate: \(String(describing: error))")
    }

    @Test func aWrongPasswordIsAnErrorNotAnAnonymousConnection() async throws {
        let credentials = TLSCredentials(
            anchorCertificates: [try server.file("ca.der")],
            clientIdentity: .init(pkcs12: try server.file("client.p12"), password: "wrong"))
        let error = await responseError {
            let _: Response<Who> = try await client.executeRequest(request: request(credentials))
        }
        guard case .transport(_, let code, _) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == URLError.secureConnectionFailed.rawValue)
    }
}
#endif
#endif
