public import Foundation
import GirdersSupport

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
/// - **Pings** from the server are answered at once (with the latest one's payload when several wait).
/// - **Sending** waits until the connection has taken the bytes: nothing queues without bound.
/// - **Closing** sends a close frame and waits for the server's (or for the connection to end).
public final class WebSocket: Sendable {
    /// The subprotocol the server chose, if any.
    public let `protocol`: String?
    /// The most messages that wait unread before reading from the connection pauses.
    public static let bufferedMessages = 16

    let session: WebSocketSession
    private let inbound: AsyncThrowingStream<WebSocketMessage, any Error>

    /// The messages of one connection, for one reader: each one taken lets the connection read on when it paused
    /// for the reader.
    public struct Messages: AsyncSequence, Sendable {
        /// A message.
        public typealias Element = WebSocketMessage
        let stream: AsyncThrowingStream<WebSocketMessage, any Error>
        let session: WebSocketSession

        /// Takes messages one by one.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<WebSocketMessage, any Error>.AsyncIterator
            let session: WebSocketSession

            /// The next message, `nil` after a normal close, or the error the connection ended with.
            public mutating func next() async throws -> WebSocketMessage? {
                let message = try await base.next()
                if message != nil { session.taken() }
                return message
            }
        }

        /// An iterator; a second one shares the same messages.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator(), session: session)
        }
    }

    init(
        channel: any WebSocketChannel, agreement: WebSocketHandshake.Agreement, limits: WebSocketLimits
    )
        throws(WebSocketError)
    {
        self.protocol = agreement.protocol
        #if !canImport(CGirdersCompression)
        guard !agreement.compression else {
            throw .connectionLost(reason: "permessage-deflate was agreed but this platform has no inflater here")
        }
        #endif
        let (stream, continuation) = AsyncThrowingStream<WebSocketMessage, any Error>.makeStream(
            bufferingPolicy: .unbounded)
        inbound = stream
        session = WebSocketSession(channel: channel, limits: limits, agreement: agreement, deliver: continuation)
        session.start()
    }

    /// The messages as they arrive, for one reader (see the type's description for how it ends).
    public var messages: Messages { Messages(stream: inbound, session: session) }

    /// Sends `message`, once the connection has taken it; fails once the connection is closing or closed.
    public func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        switch message {
        case .text(let text): try await session.send(WebSocketFrame(opcode: .text, payload: Data(text.utf8)))
        case .binary(let data): try await session.send(WebSocketFrame(opcode: .binary, payload: data))
        }
    }

    /// Sends a ping with `payload` (at most 125 bytes).
    public func ping(_ payload: Data = Data()) async throws(WebSocketError) {
        guard payload.count <= WebSocketFrame.controlPayloadLimit else {
            throw .limitExceeded(limit: .frameBytes, maximum: WebSocketFrame.controlPayloadLimit)
        }
        try await session.send(WebSocketFrame(opcode: .ping, payload: payload))
    }

    /// Closes with `code` and `reason` (cut to fit a control frame) and waits for the server's close, or for the
    /// connection to end. A code that may not be sent is sent as 1000.
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        await session.close(code.isSendable ? code : .normalClosure, reason: reason)
    }
}

/// What the reading loop and the writers of one connection share: the frame layer, the close handshake's state,
/// and the writes, one at a time.
final class WebSocketSession: Sendable {
    private struct State {
        var closeSent = false
        var closed = false
        var finished = false
        /// Messages handed to the reader and not yet taken (approximate: the stream's own count is not visible).
        var unread = 0
        var resumeReading: CheckedContinuation<Void, Never>?
        var closeReceived: [CheckedContinuation<Void, Never>] = []
    }

    let channel: any WebSocketChannel
    let limits: WebSocketLimits
    let agreement: WebSocketHandshake.Agreement
    private let deliver: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
    private let state = LockedState(State())
    private let writing = WebSocketWriteTurn()

    init(
        channel: any WebSocketChannel, limits: WebSocketLimits, agreement: WebSocketHandshake.Agreement,
        deliver: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
    ) {
        self.channel = channel
        self.limits = limits
        self.agreement = agreement
        self.deliver = deliver
    }

    func start() {
        Task { [self] in await readLoop() }
    }

    /// Writes one frame; a data or ping frame fails once a close was sent.
    func send(_ frame: WebSocketFrame) async throws(WebSocketError) {
        if state.withLock({ $0.closeSent || $0.closed }) {
            throw .connectionLost(reason: "the WebSocket is closing")
        }
        try await write(frame)
    }

    private func write(_ frame: WebSocketFrame) async throws(WebSocketError) {
        let bytes = WebSocketFrameWriter.bytes(of: frame)
        await writing.begin()
        defer { writing.end() }
        try await channel.write(bytes)
    }

    /// Sends a close frame, once per connection.
    private func sendClose(_ code: WebSocketCloseCode, reason: String) async {
        let first = state.withLock { state -> Bool in
            defer { state.closeSent = true }
            return !state.closeSent && !state.closed
        }
        guard first else { return }
        try? await write(
            WebSocketFrame(opcode: .close, payload: WebSocketFrameWriter.closePayload(code, reason: reason)))
    }

    /// Sends a close (once), then waits for the server's close or the connection's end.
    func close(_ code: WebSocketCloseCode, reason: String) async {
        await sendClose(code, reason: reason)
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.closed { return true }
                state.closeReceived.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Reads until the connection ends: frames in, messages out, pings answered, the server's close answered.
    private func readLoop() async {
        var parser = WebSocketFrameParser(limits: limits, compression: agreement.compression)
        var assembler = WebSocketMessageAssembler(limits: limits)
        do throws(WebSocketError) {
            // The inflater belongs to this loop alone (permessage-deflate's stream state).
            let inflater = try makeInflater()
            while true {
                await waitWhileReaderLags()
                guard let bytes = try await channel.read() else {
                    throw .connectionLost(reason: "the server closed the connection without a close frame")
                }
                parser.append(bytes)
                while let frame = try parser.next() {
                    guard let event = try assembler.take(frame) else { continue }
                    if try await handle(event, inflater: inflater) { return await ended() }
                }
            }
        } catch {
            // A rule the server broke or a limit: close with its code (the server's answer is not awaited).
            if error.closeCode.isSendable { await sendClose(error.closeCode, reason: "") }
            finish(throwing: error)
            await channel.close()
            await ended()
        }
    }

    /// Acts on one event; `true` once the close handshake is done.
    private func handle(
        _ event: WebSocketMessageAssembler.Event, inflater: Inflater?
    ) async throws(WebSocketError) -> Bool {
        switch event {
        case .message(let message):
            hand(message)
        case .compressedMessage(let opcode, let data):
            #if canImport(CGirdersCompression)
            guard let inflater else {
                throw .protocolViolation(
                    rule: "a compressed message without permessage-deflate (RFC 7692)", code: .protocolError)
            }
            let inflated = try inflater.inflate(data)
            if case .message(let message) = try WebSocketMessageAssembler.message(opcode, inflated) { hand(message) }
            #else
            _ = (opcode, data, inflater)
            throw .protocolViolation(
                rule: "a compressed message without permessage-deflate (RFC 7692)", code: .protocolError)
            #endif
        case .ping(let payload):
            if !state.withLock({ $0.closeSent }) { try? await write(WebSocketFrame(opcode: .pong, payload: payload)) }
        case .pong:
            break
        case .close(let code, let reason):
            // Answer with the same code (section 5.5.1), then end: normally for 1000 and for no code.
            await sendClose(code == .noStatusReceived ? .normalClosure : code, reason: "")
            if code == .normalClosure || code == .noStatusReceived {
                finish(throwing: nil)
            } else {
                finish(throwing: .closedByServer(code: code, reason: reason))
            }
            await channel.close()
            return true
        }
        return false
    }

    #if canImport(CGirdersCompression)
    typealias Inflater = WebSocketInflater
    #else
    typealias Inflater = Never
    #endif

    /// permessage-deflate's inflater when it was agreed.
    private func makeInflater() throws(WebSocketError) -> Inflater? {
        guard agreement.compression else { return nil }
        #if canImport(CGirdersCompression)
        return try WebSocketInflater.make(limits: limits, takesOverContext: !agreement.serverResetsContext).get()
        #else
        return nil
        #endif
    }

    private func hand(_ message: WebSocketMessage) {
        state.withLock { $0.unread += 1 }
        deliver.yield(message)
    }

    /// Called by the reader's side as it takes a message (see ``WebSocket/messages``).
    func taken() {
        let resume = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.unread = max(0, state.unread - 1)
            guard state.unread < WebSocket.bufferedMessages else { return nil }
            defer { state.resumeReading = nil }
            return state.resumeReading
        }
        resume?.resume()
    }

    /// Whether reading waits for the reader to take messages (for tests of back-pressure).
    var isWaitingForReader: Bool { state.withLock { $0.resumeReading != nil } }

    private func waitWhileReaderLags() async {
        await withCheckedContinuation { continuation in
            let goOn = state.withLock { state -> Bool in
                guard state.unread >= WebSocket.bufferedMessages, !state.finished else { return true }
                state.resumeReading = continuation
                return false
            }
            if goOn { continuation.resume() }
        }
    }

    private func finish(throwing error: WebSocketError?) {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        guard first else { return }
        deliver.finish(throwing: error)
    }

    /// The connection is over: everyone waiting for the close handshake goes on.
    private func ended() async {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.closed = true
            defer { state.closeReceived = [] }
            return state.closeReceived
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// One write at a time on a connection, in the order the writers came (frames must not interleave).
final class WebSocketWriteTurn: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())

    func begin() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func end() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
