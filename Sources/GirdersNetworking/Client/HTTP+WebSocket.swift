import Foundation

extension HTTP {
    /// For a client that cannot open WebSockets (a test double): ``ResponseError/unsupported(feature:)``.
    public func webSocket(_ request: Request, options: WebSocket.Options) async throws -> WebSocket {
        throw ResponseError.unsupported(feature: "WebSocket on \(Self.self)")
    }

    /// ``webSocket(_:options:)`` with the default options: the client's own whatever the static type.
    public func webSocket(_ request: Request) async throws -> WebSocket {
        try await webSocket(request, options: WebSocket.Options())
    }
}

extension HTTPClient {
    /// Opens a WebSocket (RFC 6455) at `request`'s URL (`ws`, `wss`, `http` or `https`; a relative one against
    /// ``baseURL``): the opening handshake is an ordinary `GET` through the whole exchange, so interceptors sign it
    /// and refresh a token after a `401` (the handshake is then sent again), the cookie jar adds and stores cookies,
    /// the request's TLS credentials and pins apply, monitors see its ``RequestMetrics``, the deadline bounds it, and
    /// redirects are followed as ``redirects`` allows (RFC 6455, 4.1, lets a client follow them).
    ///
    /// ```swift
    /// let socket = try await client.webSocket(Request(URL: URL(string: "wss://example.com/feed")!, method: .get))
    /// try await socket.send(.text("subscribe"))
    /// for try await message in socket.messages { show(message) }
    /// ```
    ///
    /// - Throws: ``ResponseError`` when the handshake fails as a request does (it could not connect, a status other
    ///   than `101`, for which the request's own status codes are not consulted); ``WebSocketError`` when the
    ///   server's `101` breaks a rule of section 4.1 (a wrong `Sec-WebSocket-Accept`, an extension or subprotocol
    ///   that was not offered); ``ResponseError/unsupported(feature:)`` when the transport cannot open WebSockets.
    public func webSocket(_ request: Request, options: WebSocket.Options = .init()) async throws -> WebSocket {
        let handshake = WebSocketHandshake(
            protocols: options.protocols, offersCompression: options.compression && WebSocket.canInflate,
            deflate: options.deflate)
        let exchanged = try await exchange(
            Self.upgradeRequest(request, handshake), destination: .webSocket, progress: nil)
        guard let upgrade = exchanged.upgrade else {
            throw ResponseError.unsupported(
                feature: "WebSocket on \(type(of: transport)), which answered the upgrade without a connection")
        }
        do {
            switch upgrade {
            case .bytes(let channel):
                let agreement = try handshake.check(status: exchanged.head.statusCode, headers: exchanged.head.headers)
                return try WebSocket(channel: channel, agreement: agreement, options: options)
            case .task(let task):
                // The system checked the answer's key and extensions itself; the subprotocol is checked here.
                let agreement = try handshake.checkSubprotocol(exchanged.head.headers)
                let inbox = WebSocketInbox()
                return WebSocket(
                    engine: TaskWebSocketEngine(task: task, inbox: inbox, limits: options.limits), inbox: inbox,
                    agreement: agreement, pingInterval: options.pingInterval)
            }
        } catch {
            await upgrade.close()
            throw error
        }
    }

    /// `request` as an opening handshake: `ws` and `wss` as `http` and `https`, the method `GET`, the fields of
    /// section 4.1, and `101` the one status that succeeds.
    static func upgradeRequest(_ request: Request, _ handshake: WebSocketHandshake) -> Request {
        request.editing { mutable in
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
            mutable.acceptableStatusCodes = [101]
        }
    }
}
