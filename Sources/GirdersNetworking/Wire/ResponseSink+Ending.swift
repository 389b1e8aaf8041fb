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
        if let cacheUse = response.cacheUse { state.withLock { $0.cacheUse = cacheUse } }
        guard request.bodyFollows(status: response.statusCode), !response.body.isEmpty else { return }
        // The whole body is here: its size is the progress's total, whatever the head announced.
        state.withLock { $0.total = Int64(response.body.count) }
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
            if state.ended { return state.stopReason }
            if state.stopReason == nil, state.status == nil {
                state.stopReason = .transport(url: request.url, code: 0, reason: "the response is not HTTP")
            }
            if state.stopReason == nil, let expected = state.expected, state.received < expected {
                state.stopReason = .interrupted(
                    url: request.url, receivedBytes: state.received, expectedBytes: expected,
                    reason: "the connection closed before the whole body arrived")
            }
            if let download = state.download {
                do throws(ResponseError) {
                    if state.stopReason == nil { try download.finish() } else { download.discard() }
                } catch {
                    state.stopReason = error
                }
            }
            state.ended = true
            state.stream.end(state.stopReason)
            return state.stopReason
        }
        if destination == .stream { state.withLock { $0.stream.takeWaiters() }.resume() }
        if let failure { throw failure }
    }

    /// The exchange failed with `error` (the sink's own ``stopReason`` wins): a download file is deleted and a
    /// stream's reader gets the error. Returns the error to throw.
    @discardableResult
    public func fail(_ error: ResponseError) -> ResponseError {
        let failure = state.withLock { state -> ResponseError in
            let failure = stop(error, &state)
            if !state.ended {
                state.download?.discard()
                state.ended = true
                state.stream.end(failure)
            }
            return failure
        }
        if destination == .stream { state.withLock { $0.stream.takeWaiters() }.resume() }
        return failure
    }

    /// The response of a finished exchange: its head, and its body from memory or in its download file.
    public func response() -> HTTPResponse {
        let headers = HTTPHeaders(resolvedFields())
        return state.withLock { state in
            let response = HTTPResponse(
                statusCode: state.status ?? 0, headers: headers, body: state.streaming ? Data() : state.body,
                url: request.url, request: request.request, cacheUse: state.cacheUse)
            return state.download.map { response.replacingBody(with: $0.url) } ?? response
        }
    }
}
