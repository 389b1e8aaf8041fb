#if os(Linux)
import Foundation
import Testing

@testable import GirdersNetworking

/// The thin layer over `URLSessionWebSocketTask`, run for real on Linux, where FoundationNetworking's task cannot
/// connect (its libcurl has no WebSocket): the handshake fails as a request does, through the same decisions as on
/// Apple platforms, and never hangs or crashes. (URLSessionTransport therefore uses libcurl's connection on Linux.)
struct SystemWebSocketTaskTests {
    @Test(.requires(.websockets))
    func onLinuxTheSystemTaskFailsTheHandshakeWithAResponseError() async throws {
        let server = try WebSocketServer.get()
        let transport = URLSessionTransport(configuration: .ephemeral)
        let handshake = WebSocketHandshake(protocols: [], offersCompression: false)
        let request = HTTPClient.upgradeRequest(server.request("/echo"), handshake)
        let wire = try WireRequest(lowering: request)
        let sink = ResponseSink(wire, destination: .webSocket)
        do {
            try await transport.openWebSocketTask(wire, into: sink)
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
}
#endif
