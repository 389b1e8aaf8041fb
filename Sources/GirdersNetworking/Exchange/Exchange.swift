import Foundation

/// The one exchange every way to send runs: checks, the deadline, interceptors and retries, and per attempt the hops
/// (lowering, sending into a sink, cookies, redirects, validation). ``HTTPClient/stream(_:progress:)`` is the
/// exchange with its body streamed; ``HTTPClient/perform(_:options:)`` is the exchange with its body collected in
/// memory or placed in a download file; every other form is a wrapper of a few lines over those two.
extension HTTPClient {
    /// What an exchange ends with: the final head (and the whole body, for a body kept in memory or in a download
    /// file), or the head and the body still arriving, for a streamed one.
    struct Exchanged: Sendable {
        /// The final response; for a streamed body, its head only.
        let head: HTTPResponse
        /// The body as it arrives, when it is streamed.
        let body: ResponseBody?
        /// The connection after a `101`, for a request to switch protocols.
        var upgrade: (any UpgradedConnection)? = nil
    }

    /// Runs `request` to its final response: its body kept in memory, written to the download file of
    /// `destination` (a `2xx` only), or streamed to the caller.
    func exchange(
        _ request: Request, destination: ResponseSink.Destination,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(ResponseError) -> Exchanged {
        if let reason = request.failureReason { throw .invalidRequest(reason: reason) }
        if request.responseLimits == nil, let problem = responseLimits.problem {
            throw .invalidRequest(reason: problem)
        }
        let request = try resolved(request)
        guard let seconds = request.deadline else {
            return try await withRetries(request, head: { $0.head }) { adapted, attempt throws(ResponseError) in
                try await self.hops(adapted, attempt: attempt, destination: destination, progress: progress)
            }
        }
        let deadline = Deadline(seconds: seconds, url: request.fullURL)
        let exchanged: Exchanged
        do {
            exchanged = try await deadline.run { [request] () throws(ResponseError) in
                try await self.withRetries(request, head: { $0.head }) { adapted, attempt throws(ResponseError) in
                    try await self.hops(adapted, attempt: attempt, destination: destination, progress: progress)
                }
            }
        } catch {
            deadline.end()
            throw error
        }
        guard let owner = exchanged.body?.owner else {
            deadline.end()
            return exchanged
        }
        // The body is read after this returns: the deadline ends it too, and its owner ends the deadline.
        owner.hold(deadline)
        deadline.watch { [weak owner] in owner?.stop(deadline.error) }
        return exchanged
    }

    /// One attempt: each hop lowered (``WireRequest``, with the `Cookie` field from ``cookieJar``), sent by
    /// the ``transport`` into a ``ResponseSink``, its `Set-Cookie` fields stored, redirects followed under
    /// ``redirects`` (the transport never does), the final response validated by ``validation`` (or the request's
    /// own status codes). A streamed redirect's body is read up to 64 KiB and dropped (so the connection can be
    /// reused); a streamed rejection's body is read whole (up to ``ResponseLimits/bodyBytes``) for its error; a
    /// download whose response fails validation is deleted. What the transport measured of each hop goes to the
    /// monitors as attempt `attempt`'s.
    private func hops(
        _ request: Request, attempt: Int, destination: ResponseSink.Destination,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(ResponseError) -> Exchanged {
        let jar = cookieJar
        let measures = !monitors.isEmpty || transport.readsMetrics
        var current = request
        var followed = 0
        while true {
            if Task.isCancelled { throw .cancelled(url: current.fullURL) }
            let wire = try WireRequest(lowering: current, clientLimits: responseLimits, cookies: jar)
            let sink = ResponseSink(
                wire, destination: destination, progress: progress, collectsMetrics: measures)
            let head: HTTPResponse
            var body: ResponseBody?
            if destination == .stream {
                let transfer = Task { [transport, current] in
                    defer { self.reportMetrics(of: sink, for: current, attempt: attempt) }
                    _ = try? await transport.exchange(wire, in: sink)
                }
                sink.onCancel { transfer.cancel() }
                try await sink.awaitHead()
                head = sink.response()
                body = ResponseBody(sink: sink, owner: StreamOwner(sink: sink, transfer: transfer))
            } else {
                defer { reportMetrics(of: sink, for: current, attempt: attempt) }  // failed or not
                do {
                    head = try await transport.exchange(wire, in: sink)
                } catch {
                    await sink.takeUpgrade()?.close()
                    throw error
                }
            }
            if let jar {
                let fields = sink.setCookieFields.flatMap(SetCookieFields.split)
                if !fields.isEmpty { jar.store(fields, from: wire.url) }
            }
            if let next = redirects.nextRequest(after: head, original: request) {
                await sink.takeUpgrade()?.close()
                _ = try? await body?.collect(upTo: 64 << 10)
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
                await sink.takeUpgrade()?.close()
                guard let body else {
                    DownloadFile.discard(head)
                    throw error
                }
                // A rejected stream: the error carries the whole response, as a collected one's does.
                let whole = try await body.collect(upTo: Int(clamping: wire.limits.bodyBytes))
                try validation.validate(
                    head.replacingBody(withData: whole), acceptingInstead: request.acceptableStatusCodes)
                throw error
            }
            return Exchanged(head: head, body: body, upgrade: sink.takeUpgrade())
        }
    }
}
