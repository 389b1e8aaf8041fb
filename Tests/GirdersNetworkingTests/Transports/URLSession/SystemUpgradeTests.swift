#if os(Linux)
import Foundation
import Testing

@testable import GirdersNetworking
import GirdersTestServers

/// The thin layer over `URLSessionWebSocketTask`, run for real on Linux, where FoundationNetworking's task cannot
/// connect (its libcurl has no WebSocket): the handshake fails as a request does, through the same decisions as on
/// Apple platforms, and never hangs or crashes. (URLSessionTransport therefore uses libcurl's connection on Linux.)
struct SystemUpgradeTests {
    @Test(.requires(.websockets))
    func onLinuxTheSystemTaskFailsTheHandshakeWithAResponseError() async throws {
        let server = try WebSocketServer.get()
        let transport = URLSessionTransport(configuration: .default)
        var request = MutableRequest(method: .get, url: server.url("/echo", scheme: "http"))
        request.headers["Upgrade"] = "websocket"
        request.headers["Connection"] = "Upgrade"
        request.headers["Sec-WebSocket-Version"] = "13"
        request.headers["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
        let wire = try WireRequest(lowering: Request(request))
        let sink = ResponseSink(wire, destination: .upgrade)
        do {
            try await transport.openSystemWebSocket(wire, into: sink)
            if sink.status == 101 { Issue.record("FoundationNetworking opened a WebSocket: use its task on Linux too") }
        } catch {
            // FoundationNetworking says so: "WebSockets not supported by libcurl" (URLError.unsupportedURL).
            guard case .transport(_, let code, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(code == URLError.unsupportedURL.rawValue)
            #expect(reason.contains("WebSockets not supported"), "\(reason)")
        }
    }

    @Test func urlSessionSwitchesOnlyToWebSocket() async throws {
        let transport = URLSessionTransport(configuration: .default)
        var request = MutableRequest(method: .get, url: URL(string: "http://127.0.0.1:9/")!)
        request.headers["Upgrade"] = "h2c"
        let wire = try WireRequest(lowering: Request(request))
        let error = await responseError {
            try await transport.openSystemWebSocket(wire, into: ResponseSink(wire, destination: .upgrade))
        }
        #expect(error?.kind == .unsupported)
    }
}
#endif
