public import Foundation
import GirdersNetworking

/// A WebSocket connection after its opening handshake (RFC 6455): messages to read as they arrive, messages to
/// send, pings, and the close handshake.
///
/// ```swift
/// for try await message in socket.messages {
///     if case .text(let text) = message { show(text) }
/// }
/// ```
///
/// - **Reading**: ``messages`` gives whole messages (fragments joined, text checked as UTF-8, compressed ones
///   inflated) to one reader. It finishes after the server's normal close (1000, or a close without a code) and
///   throws ``WebSocketError`` for anything else: the server's other codes, the rule it broke (the client closed
///   with 1002 or 1007 first), a limit (1009), a connection that ended without a close. When the reader lags, at
///   most ``bufferedMessages`` messages wait; then nothing more is read from the connection until it catches up.
/// - **Pings** from the server are answered before anything more is read, so a flood of pings queues nothing: the
///   connection is read only as fast as the server takes the pongs. ``Options/pingInterval`` sends pings of the
///   client's own and takes a server that answers none as lost.
/// - **Sending** waits until the connection has taken the bytes: nothing queues without bound.
/// - **Closing** sends a close frame and waits for the server's (or for the connection to end).
public final class WebSocket: Sendable {
    /// The subprotocol the server chose, if any.
    public let `protocol`: String?
    /// The most messages that wait unread before reading from the connection pauses.
    public static let bufferedMessages = 16

    /// What reads and writes the connection.
    let engine: any WebSocketEngine
    /// Where its messages wait for the reader.
    let inbox: WebSocketInbox
    /// What the handshake agreed to.
    let agreement: WebSocketHandshake.Agreement

    /// The messages of one connection, for one reader: each one taken lets the connection read on when it paused
    /// for the reader.
    public struct Messages: AsyncSequence, Sendable {
        /// A message.
        public typealias Element = WebSocketMessage
        let stream: AsyncThrowingStream<WebSocketMessage, any Error>
        let inbox: WebSocketInbox

        /// Takes messages one by one.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<WebSocketMessage, any Error>.AsyncIterator
            let inbox: WebSocketInbox

            /// The next message, `nil` after a normal close, or the error the connection ended with.
            public mutating func next() async throws -> WebSocketMessage? {
                inbox.asking()
                let message = try await base.next()
                if message != nil { inbox.taken() }
                return message
            }
        }

        /// An iterator; a second one shares the same messages.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator(), inbox: inbox)
        }
    }

    /// Whether this build can inflate permessage-deflate messages (zlib through CGirdersCompression).
    static var canInflate: Bool {
        #if canImport(CGirdersCompression)
        true
        #else
        false
        #endif
    }

    convenience init(
        channel: any UpgradedConnection, agreement: WebSocketHandshake.Agreement, options: Options = Options()
    )
        throws(WebSocketError)
    {
        guard !agreement.compression || Self.canInflate else {
            throw .protocolViolation(
                rule: "the server agreed to permessage-deflate, which was not offered (RFC 7692, 5)",
                code: .protocolError)
        }
        let inbox = WebSocketInbox()
        self.init(
            engine: WebSocketSession(channel: channel, limits: options.limits, agreement: agreement, inbox: inbox),
            inbox: inbox, agreement: agreement, pingInterval: options.pingInterval)
    }

    /// A WebSocket whose `engine` reads into `inbox`, started here.
    init(
        engine: any WebSocketEngine, inbox: WebSocketInbox, agreement: WebSocketHandshake.Agreement,
        pingInterval: Duration?
    ) {
        self.protocol = agreement.protocol
        self.engine = engine
        self.inbox = inbox
        self.agreement = agreement
        engine.start(pingInterval: pingInterval)
    }

    /// The messages as they arrive, for one reader (see the type's description for how it ends).
    public var messages: Messages { Messages(stream: inbox.stream, inbox: inbox) }

    /// Sends `message`, once the connection has taken it; fails once the connection is closing or closed.
    public func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        try await engine.send(message)
    }

    /// Sends a ping with `payload` (at most 125 bytes).
    public func ping(_ payload: Data = Data()) async throws(WebSocketError) {
        guard payload.count <= WebSocketFrame.controlPayloadLimit else {
            throw .limitExceeded(limit: .frameBytes, maximum: WebSocketFrame.controlPayloadLimit)
        }
        try await engine.ping(payload)
    }

    /// Closes with `code` and `reason` (cut to fit a control frame) and waits for the server's close, or for the
    /// connection to end. A code that may not be sent is sent as 1000.
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        await engine.close(code.isSendable ? code : .normalClosure, reason: reason)
    }
}
