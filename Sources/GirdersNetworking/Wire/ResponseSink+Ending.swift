import Foundation

/// A whole response at once, and the end of every response: a body cut short, a download made durable or deleted, a
/// stream's reader told, and the response as the client returns it.
extension ResponseSink {
    /// `response`, taken whole and ended: its head and body held to the limits, a `2xx` body in the download file
    /// for a file destination; what ``response()`` then gives.
    func collect(_ response: HTTPResponse) throws(ResponseError) -> HTTPResponse {
        do {
            try deliver(response)
        } catch {
            throw fail(error)
        }
        try finish()
        return self.response()
    }

    /// A whole response at once: its head and body go through the same checks as a streamed one's.
    public func deliver(_ response: HTTPResponse) throws(ResponseError) {
        try receiveHead(statusCode: response.statusCode, headers: response.headers)
        if let cacheUse = response.cacheUse { state.withLock { $0.end.cacheUse = cacheUse } }
        guard request.bodyFollows(status: response.statusCode), !response.body.isEmpty else { return }
        // The whole body is here: its size is the progress's total, whatever the head announced.
        state.withLock { $0.body.total = Int64(response.body.count) }
        try receive(response.body)
    }

    // MARK: The end

    /// The exchange ended without a transport error: a body shorter than its `Content-Length` is
    /// ``ResponseError/interrupted(url:receivedBytes:expectedBytes:reason:)``, a response without a head is no
    /// HTTP, and a download is made durable (or deleted when that fails). Called by ``HTTPClient`` once the
    /// transport's `send` returned.
    public func finish() throws(ResponseError) {
        let request = self.request
        let failure: ResponseError? = state.withLock { state in
            if state.end.ended { return state.end.stopReason }
            if state.end.stopReason == nil, state.head.status == nil {
                state.end.stopReason = .transport(url: request.url, code: 0, reason: "the response is not HTTP")
            }
            if state.end.stopReason == nil, let expected = state.body.expected, state.body.received < expected {
                state.end.stopReason = .interrupted(
                    url: request.url, receivedBytes: state.body.received, expectedBytes: expected,
                    reason: "the connection closed before the whole body arrived")
            }
            if let download = state.body.download {
                do throws(ResponseError) {
                    if state.end.stopReason == nil { try download.finish() } else { download.discard() }
                } catch {
                    state.end.stopReason = error
                }
            }
            state.end.ended = true
            state.body.stream.end(state.end.stopReason)
            return state.end.stopReason
        }
        if destination == .stream { state.withLock { $0.body.stream.takeWaiters() }.resume() }
        if let failure { throw failure }
    }

    /// The exchange failed with `error` (the sink's own ``stopReason`` wins): a download file is deleted and a
    /// stream's reader gets the error. Returns the error to throw.
    @discardableResult
    public func fail(_ error: ResponseError) -> ResponseError {
        let failure = state.withLock { state -> ResponseError in
            let failure = stop(error, &state)
            if !state.end.ended {
                state.body.download?.discard()
                state.end.ended = true
                state.body.stream.end(failure)
            }
            return failure
        }
        if destination == .stream { state.withLock { $0.body.stream.takeWaiters() }.resume() }
        return failure
    }

    /// The response of a finished exchange: its head, and its body from memory or in its download file.
    public func response() -> HTTPResponse {
        let headers = HTTPHeaders(resolvedFields())
        return state.withLock { state in
            let response = HTTPResponse(
                statusCode: state.head.status ?? 0, headers: headers,
                body: state.body.streaming ? Data() : state.body.memory,
                url: request.url, request: request.request, cacheUse: state.end.cacheUse)
            return state.body.download.map { response.replacingBody(with: $0.url) } ?? response
        }
    }
}
