import Foundation
public import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTP {
    /// Opens a WebSocket (RFC 6455) at `request`'s URL (`ws`, `wss`, `http` or `https`; a relative one against the
    /// client's base URL): the opening handshake is ``HTTP/upgrade(_:)``, an ordinary `GET` through the whole
    /// exchange, so interceptors sign it and refresh a token after a `401` (the handshake is then sent again), the
    /// cookie jar adds and stores cookies, the request's TLS credentials and pins apply, monitors see its
    /// `RequestMetrics`, the deadline bounds it, and redirects are followed as the client allows (RFC 6455, 4.1,
    /// lets a client follow them).
    ///
    /// ```swift
    /// let socket = try await client.webSocket(Request(URL: URL(string: "wss://example.com/feed")!, method: .get))
    /// try await socket.send(.text("subscribe"))
    /// for try await message in socket.messages { show(message) }
    /// ```
    ///
    /// - Throws: `ResponseError` when the handshake fails as a request does (it could not connect, a status other
    ///   than `101`, for which the request's own status codes are not consulted); ``WebSocketError`` when the
    ///   server's `101` breaks a rule of section 4.1 (a wrong `Sec-WebSocket-Accept`, an extension or subprotocol
    ///   that was not offered); `ResponseError/unsupported(feature:)` when the transport cannot open WebSockets.
    public func webSocket(_ request: Request, options: WebSocket.Options = .init()) async throws -> WebSocket {
        let handshake = WebSocketHandshake(
            protocols: options.protocols, offersCompression: options.compression && WebSocket.canInflate,
            deflate: options.deflate)
        let upgrade = try await self.upgrade(Self.upgradeRequest(request, handshake))
        do {
            if let system = upgrade.connection as? SystemFramedConnection {
                // The system checked the answer's key and extensions itself; the subprotocol is checked here.
                let agreement = try handshake.checkSubprotocol(upgrade.response.headers)
                let inbox = WebSocketInbox()
                let task = SystemWebSocketTask(system.task)
                return WebSocket(
                    engine: TaskWebSocketEngine(task: task, inbox: inbox, limits: options.limits), inbox: inbox,
                    agreement: agreement, pingInterval: options.pingInterval)
            }
            let agreement = try handshake.check(status: upgrade.response.statusCode, headers: upgrade.response.headers)
            return try WebSocket(channel: upgrade.connection, agreement: agreement, options: options)
        } catch {
            await upgrade.connection.close()
            throw error
        }
    }

    /// `request` as an opening handshake: `ws` and `wss` as `http` and `https`, the method `GET` and the fields of
    /// section 4.1.
    static func upgradeRequest(_ request: Request, _ handshake: WebSocketHandshake) -> Request {
        var mutable = MutableRequest(request)
        if let url = mutable.url, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            switch parts.scheme?.lowercased() {
            case "ws": parts.scheme = "http"
            case "wss": parts.scheme = "https"
            default: break
            }
            mutable.url = parts.url ?? url
        }
        mutable.method = .get
        for (name, value) in handshake.requestFields { mutable.headers[name] = value }
        return Request(mutable)
    }
}
