import Foundation
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
