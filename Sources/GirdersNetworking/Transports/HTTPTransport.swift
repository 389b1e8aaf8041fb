import Foundation

/// Sends one request and returns the raw response: the seam where another HTTP stack (or a test double) plugs in.
///
/// A transport does not follow redirects, validate statuses or decode bodies; ``HTTPClient`` does that on top,
/// identically for every transport. It maps its failures to ``ResponseError`` transport cases and stops with
/// ``ResponseError/cancelled(url:)`` when the calling Swift `Task` is cancelled.
///
/// ``HTTPClient`` always calls ``send(_:options:)``. A simple transport implements ``send(_:)`` only and gets a
/// ``send(_:options:)`` that reports the body as one progress step and writes a download with `DownloadFile`;
/// a streaming transport implements both and decides there, once, how to send.
public protocol HTTPTransport: Sendable {
    /// Sends `request` once and returns the response, 3xx included.
    func send(_ request: Request) async throws(ResponseError) -> HTTPResponse

    /// Sends `request` once, reporting progress and writing a successful body to a file as `options` ask.
    ///
    /// The default sends with ``send(_:)``, reports the whole body as one step and writes it to the file;
    /// ``URLSessionTransport`` streams instead.
    func send(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse
}

extension HTTPTransport {
    /// Sends with ``send(_:)``, then reports the body as one progress step and writes a 2xx body to the
    /// download file.
    public func send(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse {
        let response = try await send(request)
        return try options.deliver(response)
    }
}
