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
}

extension HTTP {
    /// Performs the request, then reports its body as one progress step and writes a successful body to the
    /// download destination: for clients that cannot stream.
    public func perform(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse {
        try DownloadFile.place(options.deliver(try await perform(request)), at: options.downloadDestination)
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
