import Foundation
import GirdersNetworking
import GirdersSupport

/// What the reading loop and the writers of one connection over bytes share: the frame layer, the close
/// handshake's state, and the writes, one at a time.
final class WebSocketSession: WebSocketEngine {
    private struct State {
        var closeSent = false
        var closed = false
        var closeReceived: [CheckedContinuation<Void, Never>] = []
        /// Whether the keep-alive's last ping is still unanswered (any frame from the server answers it).
        var awaitingPong = false
    }

    let channel: any UpgradedConnection
    let limits: WebSocketLimits
    let agreement: WebSocketHandshake.Agreement
    let inbox: WebSocketInbox
    private let state = LockedState(State())
    private let writing = WebSocketWriteTurn()

    init(
        channel: any UpgradedConnection, limits: WebSocketLimits, agreement: WebSocketHandshake.Agreement,
        inbox: WebSocketInbox
    ) {
        self.channel = channel
        self.limits = limits
        self.agreement = agreement
        self.inbox = inbox
    }

    /// Starts reading, and with `pingInterval` the keep-alive.
    func start(pingInterval: Duration?) {
        if !startReadingOnPollerThread() { Task { [self] in await readLoop() } }
        if let pingInterval, pingInterval > .zero {
            Task { [weak self] in await self?.keepAlive(every: pingInterval) }
        }
    }

    /// Over a connection with a thread of its own (libcurl's), reads there: no hand-over per message; `false` for
    /// any other connection.
    private func startReadingOnPollerThread() -> Bool {
        guard let channel = channel as? any ThreadPreferringConnection else { return false }
        channel.startReading { [self] in await readLoop() }
        return true
    }

    /// Sends a ping every `interval`; a ping still unanswered when the next is due ends the connection.
    private func keepAlive(every interval: Duration) async {
        while true {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            let finished = inbox.isFinished
            let (over, unanswered) = state.withLock { state -> (Bool, Bool) in
                defer { state.awaitingPong = true }
                return (state.closeSent || state.closed || finished, state.awaitingPong)
            }
            if over { return }
            if unanswered {
                finish(throwing: .connectionLost(reason: "the server answered no ping within \(interval)"))
                await channel.close()
                return
            }
            try? await write(WebSocketFrame(opcode: .ping, payload: Data("girders".utf8)))
        }
    }

    func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        switch message {
        case .text(let text): try await send(WebSocketFrame(opcode: .text, payload: Data(text.utf8)))
        case .binary(let data): try await send(WebSocketFrame(opcode: .binary, payload: data))
        }
    }

    func ping(_ payload: Data) async throws(WebSocketError) {
        try await send(WebSocketFrame(opcode: .ping, payload: payload))
    }

    /// Writes one frame; a data or ping frame fails once a close was sent.
    func send(_ frame: WebSocketFrame) async throws(WebSocketError) {
        let (closing, closed) = state.withLock { ($0.closeSent, $0.closed) }
        if closed { throw .notSent(reason: "the connection has ended") }
        if closing { throw .notSent(reason: "the close handshake has begun (a close frame was sent)") }
        try await write(frame)
    }

    /// Writes one frame in its turn: masked only then, so a sender waiting for its turn holds no copy of Girders'.
    private func write(_ frame: WebSocketFrame) async throws(WebSocketError) {
        await writing.begin()
        defer { writing.end() }
        do {
            try await channel.write(WebSocketFrameWriter.bytes(of: frame))
        } catch {
            throw .connectionLost(reason: error.reason)
        }
    }

    /// The connection's next bytes, `nil` at its end; its failure as the WebSocket's.
    private func read() async throws(WebSocketError) -> Data? {
        do {
            return try await channel.read()
        } catch {
            throw .connectionLost(reason: error.reason)
        }
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
            let inflater: Inflater? = try makeInflater()
            while true {
                await inbox.waitWhileReaderLags()
                guard let bytes = try await read() else {
                    throw .connectionLost(reason: "the server closed the connection without a close frame")
                }
                parser.append(bytes)
                state.withLock { $0.awaitingPong = false }  // the server is there
                while let frame = try parser.next() {
                    guard let event = try assembler.take(frame) else { continue }
                    if try await handle(event, inflater: inflater) { return await ended() }
                }
                if let frame = parser.incompleteFrame {
                    try assembler.check(incomplete: frame.opcode, rsv1: frame.rsv1, payload: frame.payload)
                }
            }
        } catch {
            // A rule the server broke or a limit: every message that came before it reaches the reader first (an app
            // answering them does so before the close), then close with its code (the server's answer is not
            // awaited).
            await inbox.waitUntilReaderAsksAgain(atMost: Self.readerGrace)
            if error.closeCode.isSendable { await sendClose(error.closeCode, reason: "") }
            finish(throwing: error)
            await channel.close()
            await ended()
        }
    }

    /// How long a connection that broke a rule waits for its reader to take the messages that came before, before it
    /// closes: a reader that takes them sooner (the usual case) lets it close at once.
    static let readerGrace: Duration = .seconds(2)

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
        inbox.hand(message)
    }

    private func finish(throwing error: WebSocketError?) {
        inbox.finish(throwing: error)
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
