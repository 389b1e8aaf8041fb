import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// A WebSocket's opening handshake. On Apple platforms through `URLSessionWebSocketTask` (the system frames;
    /// ``TaskWebSocketEngine`` decides the rest). On Linux FoundationNetworking's task cannot connect (the
    /// toolchains' libcurl has no WebSocket, swift-corelibs-foundation #5431), so the connection is libcurl's own, as
    /// on ``CurlTransport``: the same framing, the same checks.
    func openWebSocket(_ request: WireRequest, into sink: ResponseSink) async throws(ResponseError) {
        #if canImport(CGirdersCurl)
        try await CurlWebSocketOpener.open(request, into: sink)
        #else
        try await openWebSocketTask(request, into: sink)
        #endif
    }

    /// The handshake of a `URLSessionWebSocketTask` on this transport's session for the request's credentials (so
    /// the delegate answers its TLS challenges with the request's anchors, identity and pins): the handshake's own
    /// fields are left to the task, the head of the answer goes to the sink, and after a `101` the task.
    func openWebSocketTask(_ request: WireRequest, into sink: ResponseSink) async throws(ResponseError) {
        var urlRequest = Self.urlRequest(for: request)
        for name in WebSocketHandshake.fieldsTheSystemWrites { urlRequest.setValue(nil, forHTTPHeaderField: name) }
        let (session, delegate) = channel(for: request.request)
        let started = ContinuousClock.now
        let opening = WebSocketOpening()
        let task = SystemWebSocketTask(session.webSocketTask(with: urlRequest))
        delegate.register(task.identifier, opening: opening)
        let control = TaskControl(timeout: Self.watchedTimeout(of: request))
        control.onGiveUp { _ in opening.end(.failed(nil)) }
        let outcome = await withTaskCancellationHandler {
            task.resume()
            return await opening.wait()
        } onCancel: {
            control.cancel()
            task.cancel()
        }
        let decision = WebSocketOpening.decide(
            outcome, status: task.response?.statusCode, url: request.url, cancelled: Task.isCancelled,
            timedOut: control.timedOut)
        control.finish()
        switch decision {
        case .failure(let error):
            task.cancel()
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
            if status == 101 { sink.upgraded(toTask: task) } else { task.cancel() }
        }
    }
}
