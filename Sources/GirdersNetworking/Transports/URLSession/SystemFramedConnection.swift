public import Foundation
import GirdersSupport

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// What ``URLSessionTransport`` hands over after a WebSocket's `101` on Apple platforms: the system's
/// `URLSessionWebSocketTask`, which frames the protocol itself, so its bytes cannot be read or written (``read()``
/// and ``write(_:)`` throw); a protocol module speaks through ``task``. ``close()`` cancels the task.
public final class SystemFramedConnection: UpgradedConnection {
    private let box: LockedState<URLSessionWebSocketTask>

    init(_ task: URLSessionWebSocketTask) {
        box = LockedState(task)
    }

    /// The system's task, open: send, receive, ping and close through it.
    public var task: URLSessionWebSocketTask { box.withLock { $0 } }

    /// Throws: the system frames this connection itself.
    public func read() async throws(ConnectionLost) -> Data? {
        throw ConnectionLost(reason: "URLSession frames this connection itself; read through its task")
    }

    /// Throws: the system frames this connection itself.
    public func write(_ bytes: Data) async throws(ConnectionLost) {
        throw ConnectionLost(reason: "URLSession frames this connection itself; write through its task")
    }

    /// Cancels the task with a protocol error's close (1002): the caller refused the answer or is done.
    public func close() async {
        task.cancel(with: .protocolError, reason: nil)
    }

    /// Cancels without a close (the handshake was given up).
    func cancelHandshake() {
        task.cancel()
    }

    /// The task's number in its session.
    var identifier: Int { task.taskIdentifier }

    /// Starts the handshake.
    func resume() {
        task.resume()
    }

    /// The handshake's answer, once there is one.
    var response: HTTPURLResponse? { task.response as? HTTPURLResponse }
}
