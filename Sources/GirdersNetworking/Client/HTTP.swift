public import Foundation

/// GirdersSwift's HTTP client protocol: execute a ``Request`` and get a typed ``Response``, with async/await or a
/// completion handler. Both run the same core, ``perform(_:)``.
///
/// ```swift
/// let response: Response<LoginReply> = try await httpClient.executeRequest(request: request)
///
/// httpClient.executeRequest(request: request) { (result: Result<Response<LoginReply>, Error>) in
///     // runs exactly once, on the main queue unless another queue is given
/// }
/// ```
public protocol HTTP: Sendable {
    /// Sends the request (following redirects), validates the response and returns it undecoded.
    func perform(_ request: Request) async throws(ResponseError) -> HTTPResponse

    /// The handlers that decode bodies for ``executeRequest(request:as:)``.
    var responseHandlers: ResponseHandlerChain { get }

    /// ``perform(_:)`` with progress reports and a download destination (see ``TransferOptions``).
    func perform(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse

    /// Sends the request and returns the head of the final response with its body to read as it arrives (see
    /// ``HTTPClient/stream(_:progress:)``).
    func stream(
        _ request: Request, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(ResponseError) -> StreamedResponse

    /// Sends `request` asking to switch protocols and returns the `101` head with the connection (see
    /// ``HTTPClient/upgrade(_:)``); GirdersWebSocket opens its WebSockets with it.
    func upgrade(_ request: Request) async throws(ResponseError) -> Upgrade
}

extension HTTP {
    /// For a client that has only ``perform(_:)`` (a test double): the whole response goes through a
    /// ``ResponseSink``, as a transport's does, which reports it as one progress step and keeps a `2xx` body in the
    /// download file, moved into place.
    public func perform(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse {
        let response = try await perform(request)
        let sink = ResponseSink(
            .answered(by: response), destination: options.downloadDestination.map { .file($0) } ?? .memory,
            progress: options.progress)
        return try DownloadFile.place(try sink.collect(response), at: options.downloadDestination)
    }

    /// For a client that has only ``perform(_:)`` (a test double): the whole body, as one chunk.
    public func stream(
        _ request: Request, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(ResponseError) -> StreamedResponse {
        let response = try await perform(request, options: TransferOptions(progress: progress))
        return StreamedResponse(whole: response)
    }

    /// ``stream(_:progress:)`` without progress reports: the client's own streaming whatever the static type (a
    /// default argument on the implementation above would make `http.stream(request)` on an `any HTTP` collect the
    /// whole body instead).
    public func stream(_ request: Request) async throws(ResponseError) -> StreamedResponse {
        try await stream(request, progress: nil)
    }
}

extension HTTP {
    /// Executes the request and decodes the body as `T` with ``responseHandlers``.
    ///
    /// Cancelling the calling `Task` cancels the transfer and throws ``ResponseError/cancelled(url:)``.
    public func executeRequest<T>(
        request: Request, as type: T.Type = T.self
    ) async throws(ResponseError)
        -> sending Response<T>
    {
        let raw = try await perform(request, options: TransferOptions())
        return Response(raw, bodyObject: try responseHandlers.decode(raw, as: T.self))
    }
}

// MARK: Typed requests, transfers, events and upgrades: every other async way to send, a few lines each

extension HTTP {
    /// Sends a typed request and returns its decoded ``TypedRequest/Success``; an empty body is
    /// ``ResponseError/emptyBody(_:)``, and a rejected status whose body decodes as the request's
    /// ``DeclaredRequest/Failure`` is ``ResponseError/rejected(_:)``.
    public func send<Typed: TypedRequest>(_ typed: Typed) async throws(ResponseError) -> Typed.Success {
        let raw = try await perform(declared: typed)
        guard let value = try responseHandlers.decode(raw, as: Typed.Success.self) else { throw .emptyBody(raw) }
        return value
    }

    /// Sends a request that must succeed without a body; a body is a ``ResponseError/decodingFailed(_:)``
    /// naming its size. (danielbyon/Requests had this check inverted.)
    public func send<NoContent: NoContentRequest>(_ typed: NoContent) async throws(ResponseError) {
        let raw = try await perform(declared: typed)
        guard raw.body.isEmpty else {
            throw .decodingFailed(
                DecodingFailure(
                    type: "\(NoContent.self)", codingPath: "(root)",
                    reason: "expected no content, got \(raw.body.count) bytes", response: raw))
        }
    }

    /// Sends `request` (a body from memory, ``withBodyFile(_:contentType:)`` or ``withMultipartBody(_:)``),
    /// reporting upload and download progress to `progress`.
    public func upload(
        _ request: Request, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(ResponseError) -> HTTPResponse {
        try await perform(request, options: TransferOptions(progress: progress ?? { _ in }))
    }

    /// Downloads the body of `request` to `destination`: written to a temporary file beside it and moved into
    /// place in one step once the response is validated, so `destination` never holds a partial body. The
    /// returned response has an empty ``HTTPResponse/body`` and ``HTTPResponse/fileURL`` set to `destination`.
    public func download(
        _ request: Request, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(ResponseError) -> HTTPResponse {
        try await perform(request, options: TransferOptions(progress: progress, downloadDestination: destination))
    }

    /// ``download(_:to:progress:)`` that survives being cut off: with `resumable`, the bytes received so far and
    /// their validator stay beside `destination` when the transfer fails, is cancelled or the process is killed
    /// (``ResumeData``), and the next call for the same destination asks only for the rest, with `Range` and
    /// `If-Range`.
    ///
    /// ```swift
    /// let task = Task { try await client.download(request, to: movie, resumable: true) }
    /// task.cancel()  // a pause: the bytes so far are kept
    /// let done = try await client.download(request, to: movie, resumable: true)  // goes on from there
    /// ```
    ///
    /// The rest is taken only as a `206` whose `Content-Range` is exactly the range asked for, of the length first
    /// announced, with the same entity tag: anything else (the resource changed, a server that ignores `If-Range`)
    /// discards the kept bytes and the body is fetched whole, once, so the file never mixes two versions. A `200`
    /// starts over. A response that has no strong validator (`ETag`, or a `Last-Modified` a second older than its
    /// `Date`) is downloaded as usual but cannot be resumed. The body is asked for without a content coding
    /// (`Accept-Encoding: identity`), since a range counts the bytes as sent. `destination` only ever holds a
    /// whole body, moved into place in one step; the returned response is the last exchange's head (`206` when it
    /// resumed) with ``HTTPResponse/fileURL`` set. ``ResponseLimits/downloadBytes`` bounds the whole file.
    public func download(
        _ request: Request, to destination: URL, resumable: Bool,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(ResponseError) -> HTTPResponse {
        guard resumable else { return try await download(request, to: destination, progress: progress) }
        return try await resumableDownload(request, to: destination, progress: progress)
    }

    /// The Server-Sent Events `request` answers with (see ``ServerSentEvents``), each connection through
    /// ``stream(_:progress:)``.
    public func events(_ request: Request, options: ServerSentEvents.Options = .init()) -> ServerSentEvents {
        ServerSentEvents(client: self, request: request, options: options)
    }
}

extension HTTP {
    /// For a client that cannot switch protocols (a test double): ``ResponseError/unsupported(feature:)``.
    public func upgrade(_ request: Request) async throws(ResponseError) -> Upgrade {
        throw .unsupported(feature: "switching protocols on \(Self.self)")
    }
}
