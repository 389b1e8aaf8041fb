import Foundation
import GirdersNetworking
import GirdersSupport

/// A ``WebSocket`` over the system's WebSocket task (`URLSessionWebSocketTask`, on Apple platforms): the system
/// frames, masks, validates UTF-8, inflates and answers pings; this engine decides the rest as
/// ``WebSocketSession`` does over bytes: the reader's back-pressure (one `receive` at a time, none while
/// ``WebSocket/bufferedMessages`` wait), the message limit, how the connection ended (a normal close, the server's
/// code, a limit, a lost connection), the keep-alive, and the close handshake.
final class TaskWebSocketEngine: WebSocketEngine {
    private struct State {
        var closing = false
        var ended = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let task: any WebSocketTaskSeam
    let inbox: WebSocketInbox
    let limits: WebSocketLimits
    private let state = LockedState(State())

    init(task: any WebSocketTaskSeam, inbox: WebSocketInbox, limits: WebSocketLimits) {
        self.task = task
        self.inbox = inbox
        self.limits = limits
    }

    func start(pingInterval: Duration?) {
        Task { [self] in await readLoop() }
        if let pingInterval, pingInterval > .zero {
            Task { [weak self] in await self?.keepAlive(every: pingInterval) }
        }
    }

    private func readLoop() async {
        while true {
            await inbox.waitWhileReaderLags()
            do {
                let message = try await task.receive()
                guard Self.size(of: message) <= limits.messageBytes else {
                    task.cancel(code: Int(WebSocketCloseCode.messageTooBig.rawValue), reason: nil)
                    return end(.limitExceeded(limit: .messageBytes, maximum: limits.messageBytes))
                }
                inbox.hand(message)
            } catch {
                return end(
                    Self.ending(closeCode: task.closeCode, reason: task.closeReason, error: error, limits: limits))
            }
        }
    }

    /// How a connection whose `receive` failed with `error` ended: `nil` for a normal close (1000, or a close
    /// without a code), the server's other codes, the message limit (the system refuses a message past
    /// `maximumMessageSize` with `EMSGSIZE`), else a lost connection with the system's words.
    static func ending(closeCode: Int, reason: Data?, error: any Error, limits: WebSocketLimits) -> WebSocketError? {
        if closeCode == Int(WebSocketCloseCode.normalClosure.rawValue)
            || closeCode == Int(WebSocketCloseCode.noStatusReceived.rawValue)
        {
            return nil
        }
        if let code = UInt16(exactly: closeCode), code != 0 {
            let text = reason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return .closedByServer(code: WebSocketCloseCode(rawValue: code), reason: text)
        }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain, error.code == Int(EMSGSIZE) {
            return .limitExceeded(limit: .messageBytes, maximum: limits.messageBytes)
        }
        return .connectionLost(reason: error.localizedDescription)
    }

    static func size(of message: WebSocketMessage) -> Int {
        switch message {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }

    func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        try refuseAfterClosing()
        do {
            try await task.send(message)
        } catch {
            throw .connectionLost(reason: (error as NSError).localizedDescription)
        }
    }

    /// Throws when the close handshake has begun or the connection has ended: nothing more is sent.
    private func refuseAfterClosing() throws(WebSocketError) {
        let (closing, ended) = state.withLock { ($0.closing, $0.ended) }
        if ended { throw .notSent(reason: "the connection has ended") }
        if closing { throw .notSent(reason: "the close handshake has begun (a close frame was sent)") }
    }

    /// A ping; the system's task sends its own payload (it takes none).
    func ping(_ payload: Data) async throws(WebSocketError) {
        try refuseAfterClosing()
        do {
            try await task.sendPing()
        } catch {
            throw .connectionLost(reason: (error as NSError).localizedDescription)
        }
    }

    func close(_ code: WebSocketCloseCode, reason: String) async {
        let first = state.withLock { state -> Bool in
            defer { state.closing = true }
            return !state.closing && !state.ended
        }
        if first { task.cancel(code: Int(code.rawValue), reason: Data(WebSocketFrameWriter.closeReason(reason).utf8)) }
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.ended { return true }
                state.waiting.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Pings every `interval`; a pong still missing when the next ping is due ends the connection.
    private func keepAlive(every interval: Duration) async {
        let answered = LockedState(true)
        while true {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            if state.withLock({ $0.closing || $0.ended }) { return }
            guard answered.withLock({ $0 }) else {
                task.cancel(code: Int(WebSocketCloseCode.goingAway.rawValue), reason: nil)
                return end(.connectionLost(reason: "the server answered no ping within \(interval)"))
            }
            answered.withLock { $0 = false }
            Task { [task] in
                if (try? await task.sendPing()) != nil { answered.withLock { $0 = true } }
            }
        }
    }

    /// The connection is over: the reader is told (once), everyone waiting for the close goes on.
    private func end(_ error: WebSocketError?) {
        inbox.finish(throwing: error)
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.ended = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
