import Foundation
import GirdersNetworking
import GirdersSupport

/// The messages of one connection on their way to its reader, and the back-pressure between the two: the engine
/// that reads the connection (``WebSocketSession``, or ``TaskWebSocketEngine`` over `URLSessionWebSocketTask`)
/// hands messages in and waits while ``WebSocket/bufferedMessages`` of them are unread; the reader takes them out.
final class WebSocketInbox: Sendable {
    private struct State {
        var finished = false
        /// Messages handed to the reader and not yet taken.
        var unread = 0
        var resumeReading: CheckedContinuation<Void, Never>?
        /// Whether the reader asked for a message with none unread (it took everything handed so far).
        var readerAsking = false
        /// Whether any message was handed on this connection.
        var handedAny = false
        /// The engine waiting for the reader to ask again (``waitUntilReaderAsksAgain(atMost:)``).
        var resumeFailing: CheckedContinuation<Void, Never>?
    }

    let stream: AsyncThrowingStream<WebSocketMessage, any Error>
    private let deliver: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
    private let state = LockedState(State())

    init() {
        // Unbounded in type only: the engine hands in a message only while fewer than bufferedMessages are unread.
        (stream, deliver) = AsyncThrowingStream<WebSocketMessage, any Error>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Hands `message` to the reader.
    func hand(_ message: WebSocketMessage) {
        state.withLock {
            $0.unread += 1
            $0.readerAsking = false
            $0.handedAny = true
        }
        deliver.yield(message)
    }

    /// Called by the reader's side as it asks for the next message.
    func asking() {
        let resume = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.readerAsking = state.unread == 0
            guard state.readerAsking else { return nil }
            defer { state.resumeFailing = nil }
            return state.resumeFailing
        }
        resume?.resume()
    }

    /// Returns once the reader took every message handed to it and asked for the next, or after `limit` (a reader
    /// that stopped reading): a connection that must fail lets the messages before the failure reach the reader,
    /// and the reader answer them, first. At once when no message was ever handed.
    func waitUntilReaderAsksAgain(atMost limit: Duration) async {
        if state.withLock({ $0.readerAsking || $0.finished || !$0.handedAny }) { return }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: limit)
            self?.state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.resumeFailing = nil }
                return state.resumeFailing
            }?.resume()
        }
        await withCheckedContinuation { continuation in
            let goOn = state.withLock { state -> Bool in
                guard !state.readerAsking, !state.finished else { return true }
                state.resumeFailing = continuation
                return false
            }
            if goOn { continuation.resume() }
        }
        timer.cancel()
    }

    /// Called by the reader's side as it takes a message (see ``WebSocket/messages``).
    func taken() {
        let resume = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.unread = max(0, state.unread - 1)
            state.readerAsking = false
            guard state.unread < WebSocket.bufferedMessages else { return nil }
            defer { state.resumeReading = nil }
            return state.resumeReading
        }
        resume?.resume()
    }

    /// Returns once fewer than ``WebSocket/bufferedMessages`` messages are unread (or the inbox finished).
    func waitWhileReaderLags() async {
        // Without a continuation when the reader keeps up (every message, in the common case).
        if state.withLock({ $0.unread < WebSocket.bufferedMessages || $0.finished }) { return }
        await withCheckedContinuation { continuation in
            let goOn = state.withLock { state -> Bool in
                guard state.unread >= WebSocket.bufferedMessages, !state.finished else { return true }
                state.resumeReading = continuation
                return false
            }
            if goOn { continuation.resume() }
        }
    }

    /// Ends the messages: normally (`nil`) or with `error`; only the first call counts.
    func finish(throwing error: WebSocketError?) {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            defer {
                state.finished = true
                state.resumeReading = nil
            }
            return (!state.finished, state.resumeReading)
        }
        waiting?.resume()
        guard first else { return }
        deliver.finish(throwing: error)
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Messages handed to the reader and not yet taken (for tests of back-pressure).
    var unreadMessages: Int { state.withLock { $0.unread } }

    /// Whether the engine waits for the reader to take messages (for tests of back-pressure).
    var isWaitingForReader: Bool { state.withLock { $0.resumeReading != nil } }
}

/// What reads and writes one connection under a ``WebSocket``: framing over bytes (``WebSocketSession``), or the
/// system's own WebSocket task (``TaskWebSocketEngine``).
protocol WebSocketEngine: Sendable {
    /// Starts reading into the inbox, and with `pingInterval` the keep-alive.
    func start(pingInterval: Duration?)
    /// Sends a message once the connection has taken it; fails once the connection is closing or closed.
    func send(_ message: WebSocketMessage) async throws(WebSocketError)
    /// Sends a ping (at most 125 bytes, checked by the caller).
    func ping(_ payload: Data) async throws(WebSocketError)
    /// Sends a close (once) and waits for the server's, or for the connection to end.
    func close(_ code: WebSocketCloseCode, reason: String) async
}
