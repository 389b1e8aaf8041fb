import Foundation
public import GirdersNetworking
import GirdersSupport

/// A WebSocket that opens itself again after the connection was lost, shaped like `ServerSentEvents`: its
/// ``events`` say when a connection opened, carry its messages, and say when it was lost; reconnects wait as
/// ``WebSocket/Reconnect`` says (a floor, doubling with jitter, a bound on attempts in a row).
///
/// ```swift
/// let feed = client.reconnectingWebSocket(Request(URL: feedURL, method: .get))
/// for try await event in feed.events {
///     switch event {
///     case .connected: try await feed.send(.text("subscribe"))
///     case .message(let message): show(message)
///     case .disconnected(let reason): showOffline(reason)
///     }
/// }
/// ```
///
/// What is reconnected after: a connection that ended without a close (``WebSocketError/connectionLost(reason:)``),
/// a server's close with 1001 (going away), 1011, 1012 (restart) or 1013 (try again later), and a handshake that could
/// not connect, timed out or was cut off. What ends the events instead: a normal close (1000, without an error), a
/// rule the server broke, a limit, any other close code, a refused handshake (a `4xx`), cancelling the reading task,
/// ``close(_:reason:)``, and the bound on attempts. A message resets the back-off. Every connection's handshake runs
/// the client's whole pipeline, so interceptors sign each with the token of the moment.
public final class ReconnectingWebSocket: Sendable {
    /// What happens to the connection, in order.
    public enum Event: Sendable, Equatable {
        /// A connection opened, with the subprotocol the server chose.
        case connected(protocol: String?)
        /// A message of the open connection.
        case message(WebSocketMessage)
        /// The connection was lost; a reconnect follows (after the back-off's wait).
        case disconnected(reason: String)
    }

    private struct State {
        var current: WebSocket?
        var closed = false
    }

    let client: any HTTP
    let request: Request
    let options: WebSocket.Options
    let reconnect: WebSocket.Reconnect
    private let state = LockedState(State())

    init(client: any HTTP, request: Request, options: WebSocket.Options, reconnect: WebSocket.Reconnect) {
        self.client = client
        self.request = request
        self.options = options
        self.reconnect = reconnect
    }

    /// The events, for one reader: reading them opens the first connection.
    public var events: Events { Events(owner: self) }

    /// Sends `message` on the open connection; throws ``WebSocketError/connectionLost(reason:)`` while there is none
    /// (before the first, between connections, after the end).
    public func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        guard let socket = state.withLock({ $0.current }) else {
            throw .connectionLost(reason: "no connection is open (reconnecting, or closed)")
        }
        try await socket.send(message)
    }

    /// Closes the open connection with `code` and ends the events (no reconnect follows).
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        let socket = state.withLock { state -> WebSocket? in
            state.closed = true
            defer { state.current = nil }
            return state.current
        }
        await socket?.close(code, reason: reason)
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Makes `socket` the open connection, unless ``close(_:reason:)`` came first.
    func adopt(_ socket: WebSocket?) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.current = socket
            return true
        }
    }

    /// The events of a ``ReconnectingWebSocket``.
    public struct Events: AsyncSequence, Sendable {
        /// An event.
        public typealias Element = Event
        let owner: ReconnectingWebSocket

        /// Opens connections as it is read.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: owner) }

        /// Reads events, reconnecting as ``WebSocket/Reconnect`` says.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let owner: ReconnectingWebSocket
            var messages: WebSocket.Messages.AsyncIterator?
            var failedInARow = 0
            var finished = false

            /// The next event, `nil` once the events ended, or the error that ended them.
            public mutating func next() async throws -> Event? {
                guard !finished else { return nil }
                do {
                    return try await step()
                } catch {
                    finished = true
                    _ = owner.adopt(nil)
                    throw error
                }
            }

            private mutating func step() async throws -> Event? {
                if owner.isClosed {
                    finished = true
                    return nil
                }
                guard var iterator = messages else { return try await connect() }
                do {
                    let message = try await iterator.next()
                    messages = iterator
                    guard let message else {
                        finished = true  // a normal close
                        _ = owner.adopt(nil)
                        return nil
                    }
                    failedInARow = 0
                    return .message(message)
                } catch {
                    messages = nil
                    _ = owner.adopt(nil)
                    if owner.isClosed {
                        finished = true
                        return nil
                    }
                    guard WebSocket.Reconnect.reconnects(after: error) else { throw error }
                    failedInARow += 1
                    return .disconnected(reason: "\(error)")
                }
            }

            /// Waits as the back-off says (not before the first connection), then opens one.
            private mutating func connect() async throws -> Event? {
                let reconnect = owner.reconnect
                while true {
                    if failedInARow > 0 {
                        if let limit = reconnect.maximumReconnects, failedInARow > limit {
                            throw WebSocketError.connectionLost(
                                reason: "the connection was lost \(failedInARow) times in a row (\(limit) reconnects)")
                        }
                        let seconds = reconnect.wait(attempt: failedInARow, random: reconnect.random())
                        do {
                            try await reconnect.sleep(seconds)
                        } catch {
                            throw ResponseError.cancelled(url: owner.request.fullURL)
                        }
                    }
                    do {
                        let socket = try await owner.client.webSocket(owner.request, options: owner.options)
                        guard owner.adopt(socket) else {
                            await socket.close()
                            finished = true
                            return nil
                        }
                        messages = socket.messages.makeAsyncIterator()
                        return .connected(protocol: socket.protocol)
                    } catch {
                        guard WebSocket.Reconnect.reconnects(after: error), !Task.isCancelled else { throw error }
                        failedInARow += 1
                    }
                }
            }
        }
    }
}

extension HTTP {
    /// A WebSocket at `request` that reconnects as `reconnect` says (see ``ReconnectingWebSocket``); nothing is
    /// opened until its events are read.
    public func reconnectingWebSocket(
        _ request: Request, options: WebSocket.Options = .init(), reconnect: WebSocket.Reconnect = .init()
    ) -> ReconnectingWebSocket {
        ReconnectingWebSocket(client: self, request: request, options: options, reconnect: reconnect)
    }
}
