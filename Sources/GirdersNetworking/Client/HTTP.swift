import Foundation

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
