import Foundation
import GirdersSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``URLSessionTransport``'s session delegate: redirects go back to the client, challenges are answered here.
final class SessionDelegate: NSObject, URLSessionDataDelegate, URLSessionWebSocketDelegate, Sendable {
    /// What the delegate learned about one task, handed over when the task completes.
    struct TaskInfo: Sendable {
        /// The 401 a Linux authentication challenge was cancelled for.
        var challengeResponse: HTTPURLResponse?
        /// Why the server's certificate was rejected.
        var tlsFailure: String?
    }

    private let tasks = LockedState<[Int: TaskInfo]>([:])
    private let transfers = LockedState<[Int: TransferTask]>([:])
    private let openings = LockedState<[Int: SystemUpgradeOpening]>([:])
    /// What every connection of this delegate's session presents (see ``ChannelKey``).
    let credentials: TLSCredentials?
    let identities: Identities

    init(credentials: TLSCredentials?, identities: Identities) {
        self.credentials = credentials
        self.identities = identities
    }

    /// Routes the data callbacks of task `identifier` to `transfer` until it completes.
    func register(_ identifier: Int, transfer: TransferTask) {
        transfers.withLock { $0[identifier] = transfer }
    }

    /// Tells `opening` how the handshake of WebSocket task `identifier` (URLSession's one upgrade) ends.
    func register(_ identifier: Int, opening: SystemUpgradeOpening) {
        openings.withLock { $0[identifier] = opening }
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
    ) {
        openings.withLock { $0.removeValue(forKey: webSocketTask.taskIdentifier) }?.end(.opened)
    }

    /// Nothing: the engine reads the close from the task when its `receive` ends.
    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {}

    private func transfer(_ task: URLSessionTask) -> TransferTask? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(dataTask) else { return completionHandler(.allow) }
        guard let http = response as? HTTPURLResponse else { return completionHandler(.allow) }
        completionHandler(transfer.receive(http) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if let transfer = transfer(dataTask), !transfer.receive(data) { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(task)?.sent(totalBytesSent, of: totalBytesExpectedToSend)
    }

    /// Apple platforms call this before the task completes; FoundationNetworking never does.
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let transfer = transfer(task), transfer.sink.collectsMetrics,
            let measured = RequestMetrics(url: transfer.wire.url, task: metrics)
        else { return }
        transfer.sink.record(measured)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let opening = openings.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
            _ = finish(task.taskIdentifier)
            return opening.end(.failed(error))
        }
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        transfer.complete(error: error, info: finish(task.taskIdentifier))
    }

    func finish(_ identifier: Int) -> TaskInfo {
        tasks.withLock { $0.removeValue(forKey: identifier) } ?? TaskInfo()
    }

    private func update(_ identifier: Int, _ change: (inout TaskInfo) -> Void) {
        tasks.withLock { tasks in
            var info = tasks[identifier] ?? TaskInfo()
            change(&info)
            tasks[identifier] = info
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // HTTPClient follows redirects itself, the same way for every transport
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // FoundationNetworking hangs on a 401 unless the challenge is answered; cancel it and report the 401.
        if let failure = challenge.failureResponse as? HTTPURLResponse {
            update(task.taskIdentifier) { $0.challengeResponse = failure }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        let space = challenge.protectionSpace
        let answer = TLSChallengeAnswer.answer(
            method: space.authenticationMethod, host: space.host, serverTrust: space.serverTrust,
            credentials: credentials, identities: identities, security: SystemTLSSecurity())
        if let failure = answer.failure { update(task.taskIdentifier) { $0.tlsFailure = failure } }
        completionHandler(answer.disposition, answer.credential(SystemTLSSecurity()))
        #endif
    }

    #if canImport(FoundationNetworking)
    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
    #endif
}

extension SessionDelegate {
    /// The transport's imported client identities.
    typealias Identities = IdentityCache<ClientIdentity>
}
