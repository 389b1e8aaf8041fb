import Foundation

/// Streamed responses: the pipeline of ``HTTPClient/perform(_:options:)`` (interceptors, retries, redirects,
/// validation) up to the head of the final response, then its body as it arrives.
extension HTTPClient {
    /// Sends `request` and returns as soon as the head of a successful response arrived, with its body to read as
    /// it arrives (line-delimited JSON, a token stream, a long download processed on the fly).
    ///
    /// Interceptors adapt every attempt and failures before the head are retried as they decide; redirects are
    /// followed; the final head is validated by ``validation`` (a rejected status fails with its whole body, as
    /// ``perform(_:options:)`` does). The body is read once (``ResponseBody``); the transport holds back while the
    /// reader lags. ``withDeadline(_:)`` bounds the whole exchange, body included; ``withTimeout(_:)`` is the time
    /// without progress while the body is read (a paused transfer waiting for its reader is not idle).
    ///
    /// ```swift
    /// let streamed = try await client.stream(Request(URL: tokensURL, method: .get))
    /// for try await chunk in streamed.body { show(chunk) }
    /// ```
    public func stream(
        _ request: Request, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(ResponseError) -> StreamedResponse {
        if let reason = request.failureReason { throw .invalidRequest(reason: reason) }
        if request.responseLimits == nil, let problem = responseLimits.problem {
            throw .invalidRequest(reason: problem)
        }
        let request = try resolved(request)
        let started = ContinuousClock.now
        let pipeline: @Sendable () async throws(ResponseError) -> StreamedResponse = { () throws(ResponseError) in
            try await self.withRetries(request, head: \.head) { adapted, attempt throws(ResponseError) in
                try await self.streamingRedirects(adapted, attempt: attempt, progress: progress, started: started)
            }
        }
        guard let deadline = request.deadline else { return try await pipeline() }
        return try await Deadline.run(seconds: deadline, url: request.fullURL, pipeline)
    }

    /// One attempt of ``stream(_:progress:)``: each hop lowered and sent into a streaming sink on a transfer of its
    /// own; a redirect's body is read (up to 64 KiB, so the connection can be reused) and dropped, a rejected
    /// status's body is read whole (up to ``ResponseLimits/bodyBytes``) for its error, an accepted one is handed to
    /// the caller.
    private func streamingRedirects(
        _ request: Request, attempt: Int, progress: (@Sendable (TransferProgress) -> Void)?,
        started: ContinuousClock.Instant
    ) async throws(ResponseError) -> StreamedResponse {
        var current = request
        var followed = 0
        while true {
            if Task.isCancelled { throw .cancelled(url: current.fullURL) }
            let wire = try WireRequest(lowering: current, clientLimits: responseLimits)
            let sink = ResponseSink(wire, destination: .stream, progress: progress, collectsMetrics: !monitors.isEmpty)
            let transfer = Task { [transport, current] in
                do throws(ResponseError) {
                    try await transport.send(wire, to: sink)
                    try sink.finish()
                } catch {
                    sink.fail(error)
                }
                self.reportMetrics(of: sink, for: current, attempt: attempt)
            }
            sink.onCancel { transfer.cancel() }
            try await sink.awaitHead()
            let head = sink.response()
            let owner = StreamOwner(
                sink: sink, transfer: transfer, remaining: request.deadline.map { $0 - Self.seconds(since: started) },
                seconds: request.deadline)
            let body = ResponseBody(sink: sink, owner: owner)
            if let next = redirects.nextRequest(after: head, original: request) {
                _ = try? await body.collect(upTo: 64 << 10)
                followed += 1
                if followed > redirects.maximumRedirects {
                    throw .tooManyRedirects(url: request.fullURL, limit: redirects.maximumRedirects)
                }
                current = next
                continue
            }
            do {
                try validation.validate(head, acceptingInstead: request.acceptableStatusCodes)
            } catch {
                // Rejected: the error carries the whole response, as perform's does.
                let whole = try await body.collect(upTo: Int(clamping: wire.limits.bodyBytes))
                try validation.validate(
                    head.replacingBody(withData: whole), acceptingInstead: request.acceptableStatusCodes)
                throw error
            }
            return StreamedResponse(head: head, body: body)
        }
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
