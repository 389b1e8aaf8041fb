#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation
import GirdersSupport
import Glibc

/// A connection libcurl made (`CURLOPT_CONNECT_ONLY`: TCP, and TLS with the request's credentials and pins) and
/// Girders speaks over with `curl_easy_send` and `curl_easy_recv`: a request to switch protocols, then the new protocol's bytes.
///
/// Both calls are non-blocking and run under one lock (an easy handle, and a TLS session, is used by one thread at a
/// time); waiting for the socket happens outside it, in ``CurlSocketPoller``, so a read waiting for the server never
/// holds a write back. ``close()`` ends every wait and frees the handle under the same lock, so no call can reach a
/// freed handle.
final class CurlSocketChannel: ThreadPreferringConnection {
    private struct State {
        /// `nil` once closed.
        var easy: UnsafeMutableRawPointer?
        /// Bytes read past the handshake's head, handed out by the first `read`.
        var leftover = Data()
        /// Where `curl_easy_recv` writes: made once, reused for every read (a read copies out what arrived).
        var buffer = [UInt8](repeating: 0, count: CurlSocketChannel.readSize)
    }

    private let state: LockedState<State>
    let socket: Int32
    let url: URL
    private let poller = CurlSocketPoller.shared
    /// The most bytes one `read` returns.
    static let readSize = 64 << 10

    init(easy: UnsafeMutableRawPointer, socket: Int32, url: URL) {
        self.state = LockedState(State(easy: easy))
        self.socket = socket
        self.url = url
    }

    deinit {
        // A channel dropped without close (its upgrade never taken): forget its socket before libcurl closes it.
        guard let easy = state.withLock({ $0.easy }) else { return }
        poller.release(socket, for: ObjectIdentifier(self))
        curl_easy_cleanup(easy)
    }

    /// Bytes that came after the head: the first read returns them.
    func keep(_ leftover: Data) {
        state.withLock { $0.leftover = leftover }
    }

    /// Whether ``close()`` was called. The poller asks under its own lock, which orders the two locks one way only
    /// (this channel never calls the poller while holding its own): a wait registered before a close is released by
    /// it.
    var isClosed: Bool { state.withLock { $0.easy == nil } }

    func read() async throws(ConnectionLost) -> Data? {
        try await read(until: nil)
    }

    /// The next bytes, `nil` once the server or ``close()`` closed the connection; with a deadline, throws when it
    /// passes first (the handshake's head has one).
    func read(until deadline: ContinuousClock.Instant?) async throws(ConnectionLost) -> Data? {
        while true {
            let result = state.withLock { state -> (Data?, CURLcode) in
                guard let easy = state.easy else { return (nil, CURLE_OK) }
                if !state.leftover.isEmpty {
                    defer { state.leftover = Data() }
                    return (state.leftover, CURLE_OK)
                }
                var received = 0
                let code = state.buffer.withUnsafeMutableBytes {
                    curl_easy_recv(easy, $0.baseAddress, $0.count, &received)
                }
                guard code == CURLE_OK else { return (nil, code) }
                return (Data(state.buffer[..<min(received, state.buffer.count)]), code)
            }
            switch result {
            case (let bytes?, CURLE_OK): return bytes.isEmpty ? nil : bytes
            case (nil, CURLE_OK): return nil
            case (_, CURLE_AGAIN):
                switch await poller.wait(
                    socket, for: ObjectIdentifier(self), until: deadline, unless: { self.isClosed })
                {
                case .ready: continue
                case .released: return nil
                case .timedOut: throw ConnectionLost(reason: "no answer before the request's timeout")
                }
            case (_, let code):
                throw ConnectionLost(reason: "reading failed: \(String(cString: curl_easy_strerror(code)))")
            }
        }
    }

    func write(_ bytes: Data) async throws(ConnectionLost) {
        var offset = 0
        while offset < bytes.count {
            let (sent, code) = state.withLock { state -> (Int, CURLcode) in
                guard let easy = state.easy else { return (0, CURLE_SEND_ERROR) }
                var sent = 0
                let code = bytes.withUnsafeBytes { raw in
                    curl_easy_send(easy, raw.baseAddress.map { $0 + offset }, raw.count - offset, &sent)
                }
                return (sent, code)
            }
            offset += sent
            switch code {
            case CURLE_OK: continue
            case CURLE_AGAIN:
                if await poller.wait(socket, for: ObjectIdentifier(self), write: true, unless: { self.isClosed })
                    == .released
                {
                    throw ConnectionLost(reason: "the connection closed while writing")
                }
            default:
                throw ConnectionLost(
                    reason: isClosed
                        ? "the connection closed while writing"
                        : "writing failed: \(String(cString: curl_easy_strerror(code)))")
            }
        }
    }

    /// Reads where the socket's readiness is seen: the poller's thread.
    func startReading(_ reader: @escaping @Sendable () async -> Void) {
        Task(executorPreference: poller.executor) { await reader() }
    }

    func close() async {
        closeNow()
    }

    /// Closes at once (the handle freed, every wait ended); also from a cancellation handler.
    func closeNow() {
        let easy = state.withLock { state -> UnsafeMutableRawPointer? in
            defer { state.easy = nil }
            return state.easy
        }
        guard let easy else { return }
        poller.release(socket, for: ObjectIdentifier(self))
        curl_easy_cleanup(easy)
    }
}
#endif
