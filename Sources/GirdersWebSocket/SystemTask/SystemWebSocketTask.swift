import Foundation
import GirdersNetworking
import GirdersSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSessionWebSocketTask` as a ``WebSocketTaskSeam``: each call is one of the task's own, nothing decided here
/// (``TaskWebSocketEngine`` decides). The system sends only the close codes RFC 6455 names: an application's code
/// (4000-4999) goes out as 1000 on Apple platforms.
final class SystemWebSocketTask: WebSocketTaskSeam {
    private let box: LockedState<URLSessionWebSocketTask>

    init(_ task: URLSessionWebSocketTask) {
        box = LockedState(task)
    }

    private var task: URLSessionWebSocketTask { box.withLock { $0 } }

    /// The most bytes of one message the task takes before it fails with `EMSGSIZE`.
    func limitMessages(to bytes: Int) {
        box.withLock { $0.maximumMessageSize = bytes }
    }

    func receive() async throws -> WebSocketMessage {
        switch try await task.receive() {
        case .string(let text): return .text(text)
        case .data(let data): return .binary(data)
        @unknown default: throw URLError(.cannotParseResponse)
        }
    }

    func send(_ message: WebSocketMessage) async throws {
        switch message {
        case .text(let text): try await task.send(.string(text))
        case .binary(let data): try await task.send(.data(data))
        }
    }

    func sendPing() async throws {
        let task = self.task
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            task.sendPing { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    func cancel(code: Int, reason: Data?) {
        task.cancel(with: URLSessionWebSocketTask.CloseCode(rawValue: code) ?? .normalClosure, reason: reason)
    }

    /// Cancels without a close (the handshake was given up).
    func cancel() {
        task.cancel()
    }

    var closeCode: Int { task.closeCode.rawValue }

    var closeReason: Data? { task.closeReason }

    /// The task's number in its session.
    var identifier: Int { task.taskIdentifier }

    /// Starts the handshake.
    func resume() {
        task.resume()
    }

    /// The handshake's answer, once there is one.
    var response: HTTPURLResponse? { task.response as? HTTPURLResponse }
}
