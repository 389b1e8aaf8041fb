import Foundation
import GirdersSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// A request to switch protocols. On Apple platforms URLSession switches only to WebSocket, through
    /// `URLSessionWebSocketTask`, which frames the protocol itself: the task is handed over as a
    /// ``SystemFramedConnection``. On Linux FoundationNetworking's task cannot connect (the toolchains' libcurl has no
    /// WebSocket, swift-corelibs-foundation #5431), so the connection is libcurl's own, as on ``CurlTransport``: bytes,
    /// whatever the protocol.
    func openUpgrade(_ request: WireRequest, into sink: ResponseSink) async throws(ResponseError) {
        #if canImport(CGirdersCurl)
        try await CurlUpgradeOpener.open(request, into: sink)
        #else
        try await openSystemWebSocket(request, into: sink)
        #endif
    }

    /// The fields a `URLSessionWebSocketTask` writes itself (its key, version and compression offer).
    static let fieldsTheSystemWrites = [
        "Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Extensions",
    ]

    /// The handshake of a `URLSessionWebSocketTask` on this transport's session for the request's credentials (so
    /// the delegate answers its TLS challenges with the request's anchors, identity and pins): the handshake's own
    /// fields are left to the task, the head of the answer goes to the sink, and after a `101` the task.
    func openSystemWebSocket(_ request: WireRequest, into sink: ResponseSink) async throws(ResponseError) {
        guard request.headers["Upgrade"]?.lowercased() == "websocket" else {
            throw .unsupported(feature: "switching to \(request.headers["Upgrade"] ?? "nothing") on URLSession")
        }
        var urlRequest = Self.urlRequest(for: request)
        for name in Self.fieldsTheSystemWrites { urlRequest.setValue(nil, forHTTPHeaderField: name) }
        let (session, delegate) = channel(for: request.request)
        let started = ContinuousClock.now
        let opening = SystemUpgradeOpening()
        let task = SystemFramedConnection(session.webSocketTask(with: urlRequest))
        delegate.register(task.identifier, opening: opening)
        let control = TaskControl(timeout: Self.watchedTimeout(of: request))
        control.onGiveUp { _ in opening.end(.failed(nil)) }
        let outcome = await withTaskCancellationHandler {
            task.resume()
            return await opening.wait()
        } onCancel: {
            control.cancel()
            task.cancelHandshake()
        }
        let decision = SystemUpgradeOpening.decide(
            outcome, status: task.response?.statusCode, url: request.url, cancelled: Task.isCancelled,
            timedOut: control.timedOut)
        control.finish()
        switch decision {
        case .failure(let error):
            task.cancelHandshake()
            throw error
        case .head(let status):
            try sink.receiveHead(
                statusCode: status, headers: task.response.map(TransferTask.headers(of:)) ?? HTTPHeaders())
            if sink.collectsMetrics {
                var metrics = RequestMetrics(url: request.url)
                metrics.total = started.duration(to: .now)
                metrics.networkProtocol = .http1_1
                sink.record(metrics)
            }
            if status == 101 { sink.upgraded(to: task) } else { task.cancelHandshake() }
        }
    }
}
