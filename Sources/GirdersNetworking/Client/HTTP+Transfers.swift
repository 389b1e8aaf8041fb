public import Foundation

/// Uploads and downloads with progress: ``HTTP/perform(_:options:)`` with ``TransferOptions``.
extension HTTP {
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
}
