#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket
import GirdersTestServers

/// `client.webSocket(_:)` against a third-party server (PyPI's `websockets`), on every transport: the handshake as a
/// request through the pipeline, messages both ways, compression, and the close handshake.
@Suite(.requires(.websockets))
struct WebSocketClientTests {
    let server: WebSocketServer

    init() throws {
        server = try WebSocketServer.get()
    }

    @Test(arguments: TransportKind.allCases)
    func textAndBinaryMessagesComeBackFromAnEchoServer(_ kind: TransportKind) async throws {
        let socket = try await kind.client().webSocket(server.request("/echo"))
        try await socket.send(.text("héllo"))
        try await socket.send(.binary(Data([0, 1, 2, 255])))
        let big = String(repeating: "girders ", count: 40_000)  // 320 KB: several frames' worth, compressed back
        try await socket.send(.text(big))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("héllo"))
        #expect(try await iterator.next() == .binary(Data([0, 1, 2, 255])))
        #expect(try await iterator.next() == .text(big))
        await socket.close()
        #expect(try await iterator.next() == nil)
    }

    @Test(arguments: TransportKind.allCases)
    func theServerAgreesToCompressionAndItsCompressedMessagesAreInflated(_ kind: TransportKind) async throws {
        let socket = try await kind.client().webSocket(server.request("/headers"))
        let (messages, error) = await socket.readAll()
        #expect(error == nil)
        guard case .text(let json)? = messages.first else {
            Issue.record("no message: \(messages)")
            return
        }
        let fields = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(fields["sec-websocket-extensions"] == "permessage-deflate; client_max_window_bits")
        #expect(fields["sec-websocket-version"] == "13")
        #expect(fields["upgrade"] == "websocket")
        #expect(socket.agreement.compression)
    }

    @Test
    func withoutCompressionOfferedTheServerSendsPlainFrames() async throws {
        let socket = try await TransportKind.underTest.client().webSocket(
            server.request("/echo"), options: .init(compression: false))
        #expect(!socket.agreement.compression)
        try await socket.send(.text("plain"))
        #expect(try await socket.next() == .text("plain"))
        await socket.close()
    }

    @Test
    func aSubprotocolIsOfferedAndTheServersChoiceIsKept() async throws {
        let socket = try await TransportKind.underTest.client().webSocket(
            server.request("/echo"), options: .init(protocols: ["superchat", "chat"]))
        #expect(socket.protocol == "superchat")
        await socket.close()
    }

    @Test(arguments: TransportKind.allCases)
    func aServersCloseCodeAndReasonReachTheReader(_ kind: TransportKind) async throws {
        let socket = try await kind.client().webSocket(server.request("/close?code=4001&reason=bye"))
        let (_, error) = await socket.readAll()
        #expect(error as? WebSocketError == .closedByServer(code: WebSocketCloseCode(rawValue: 4001), reason: "bye"))
    }

    @Test
    func aNormalCloseEndsTheMessagesWithoutAnError() async throws {
        let socket = try await TransportKind.underTest.client().webSocket(server.request("/count?n=3&size=10"))
        let (messages, error) = await socket.readAll()
        #expect(error == nil)
        #expect(messages == (0..<3).map { .binary(Data(repeating: UInt8($0), count: 10)) })
    }

    @Test
    func aCompressedMessageThatInflatesPastTheLimitClosesWith1009() async throws {
        let socket = try await TransportKind.underTest.client().webSocket(
            server.request("/big?size=2000000"), options: .init(limits: WebSocketLimits(messageBytes: 1 << 20)))
        let (messages, error) = await socket.readAll()
        #expect(messages.isEmpty)
        #expect(error as? WebSocketError == .limitExceeded(limit: .messageBytes, maximum: 1 << 20))
    }

    @Test
    func aRefusedHandshakeIsTheStatusErrorWithItsBody() async throws {
        let error = await #expect(throws: ResponseError.self) {
            _ = try await TransportKind.underTest.client().webSocket(server.request("/auth"))
        }
        guard case .unauthorized(let response)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(response.body == Data("no way".utf8))
    }

    @Test
    func anInterceptorRefreshesTheTokenAfterA401AndTheHandshakeIsSentAgain() async throws {
        let tokens = LockedList<String>()
        let client = TransportKind.underTest.client().adding(RefreshingBearer(tokens: tokens))
        let socket = try await client.webSocket(server.request("/auth"))
        try await socket.send(.text("in"))
        #expect(try await socket.next() == .text("in"))
        #expect(tokens.values == ["stale", "fresh"])
        await socket.close()
    }

    @Test
    func theHandshakeFollowsARedirect() async throws {
        let socket = try await TransportKind.underTest.client().webSocket(server.request("/redirect"))
        try await socket.send(.text("moved"))
        #expect(try await socket.next() == .text("moved"))
        await socket.close()
    }

    @Test
    func cookiesAreStoredFromThe101AndSentWithTheNextHandshake() async throws {
        let jar = RFC6265CookieJar()
        let client = TransportKind.underTest.client(cookies: jar)
        let first = try await client.webSocket(server.request("/cookie"))
        _ = await first.readAll()
        let second = try await client.webSocket(server.request("/headers"))
        let (messages, _) = await second.readAll()
        guard case .text(let json)? = messages.first else {
            Issue.record("no message")
            return
        }
        let fields = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(fields["cookie"] == "ws=1")
    }

    @Test
    func theHandshakeIsMeasuredForMonitors() async throws {
        let monitor = HandshakeMetrics()
        let client = HTTPClient(transport: TransportKind.underTest.transport(), monitors: [monitor])
        let socket = try await client.webSocket(server.request("/echo"))
        await socket.close()
        guard let metrics = monitor.metrics.values.first else {
            Issue.record("no metrics")
            return
        }
        #expect(metrics.networkProtocol == RequestMetrics.NetworkProtocol.http1_1)
        #expect((metrics.bytesReceived ?? 0) > 100)
        #expect(metrics.total != nil)
    }

    @Test
    func aTransportThatAnswers101WithoutAConnectionIsUnsupported() async throws {
        let client = HTTPClient(transport: UpgradeIgnoringTransport())
        let error = await #expect(throws: ResponseError.self) {
            _ = try await client.webSocket(server.request("/echo"))
        }
        guard case .unsupported(let feature)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(feature.contains("UpgradeIgnoringTransport"))
    }
}

/// The metrics a client reports.
private final class HandshakeMetrics: EventMonitor {
    let metrics = LockedList<RequestMetrics>()

    func requestDidCollectMetrics(_ request: Request, attempt: Int, metrics: RequestMetrics) {
        self.metrics.append(metrics)
    }
}

/// Answers every request with a bare 101, as a transport that knows nothing of WebSockets might.
private struct UpgradeIgnoringTransport: HTTPTransport {
    func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        try sink.deliver(
            HTTPResponse(statusCode: 101, headers: [:], body: Data(), url: request.url, request: request.request))
    }
}

/// Signs with "stale" first; after a 401, refreshes to "fresh" and retries.
private struct RefreshingBearer: RequestInterceptor {
    let tokens: LockedList<String>

    func adapt(_ request: Request, context: InterceptorContext) async throws -> Request {
        let token = context.attempt == 1 ? "stale" : "fresh"
        tokens.append(token)
        return request.settingHeader("Authorization", "Bearer \(token)")
    }

    func retry(_ request: Request, after failure: ResponseError, context: InterceptorContext) async -> RetryDecision {
        if case .unauthorized = failure, context.attempt == 1 { return .retry }
        return .doNotRetry
    }
}
#endif
