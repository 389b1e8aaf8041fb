public import Foundation

/// A running upload or download whose progress arrives as an `AsyncStream`.
///
/// ```swift
/// let transfer = client.downloadTransfer(request, to: destination)
/// for await step in transfer.progress { bar.value = step.fractionCompleted ?? 0 }
/// let response = try await transfer.response   // response.fileURL == destination
/// ```
///
/// The stream finishes when the transfer ends, however it ends. ``cancel()`` stops the transfer;
/// ``response`` then throws ``ResponseError/cancelled(url:)`` and a partial download is deleted.
public final class Transfer: Sendable {
    /// Progress steps, in order; finishes when the transfer ends.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<HTTPResponse, any Error>
    private let url: URL

    init(
        request: Request, downloadDestination: URL?,
        perform: @escaping @Sendable (Request, TransferOptions) async throws(ResponseError) -> HTTPResponse
    ) {
        let (stream, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(64))
        progress = stream
        url = request.fullURL
        let options = TransferOptions(
            progress: { continuation.yield($0) }, downloadDestination: downloadDestination)
        task = Task {
            defer { continuation.finish() }
            return try await perform(request, options)
        }
    }

    /// The final response (for downloads, ``HTTPResponse/fileURL`` is the destination).
    public var response: HTTPResponse {
        get async throws(ResponseError) {
            do {
                return try await task.value
            } catch {
                throw error as? ResponseError ?? .cancelled(url: url)
            }
        }
    }

    /// Cancels the transfer.
    public func cancel() {
        task.cancel()
    }
}

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

    /// ``upload(_:progress:)`` with progress as an `AsyncStream`.
    public func uploadTransfer(_ request: Request) -> Transfer {
        Transfer(request: request, downloadDestination: nil) { request, options throws(ResponseError) in
            try await self.perform(request, options: options)
        }
    }

    /// ``download(_:to:progress:)`` with progress as an `AsyncStream`.
    public func downloadTransfer(_ request: Request, to destination: URL) -> Transfer {
        Transfer(request: request, downloadDestination: destination) { request, options throws(ResponseError) in
            try await self.perform(request, options: options)
        }
    }

    /// A ``FluentTask`` uploading `request` and decoding the reply as `T`, with progress.
    public func task<T: Sendable>(
        uploading request: Request, as type: T.Type = T.self, queue: DispatchQueue = .main,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) -> FluentTask<T> {
        FluentTask(queue: queue) { () async throws(ResponseError) -> Response<T> in
            let raw = try await self.upload(request, progress: progress)
            return Response(raw, bodyObject: try self.responseHandlers.decode(raw, as: T.self))
        }
    }

    /// A ``FluentTask`` downloading `request` to `destination`; its body object is the destination.
    public func task(
        downloading request: Request, to destination: URL, queue: DispatchQueue = .main,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) -> FluentTask<URL> {
        FluentTask(queue: queue) { () async throws(ResponseError) -> Response<URL> in
            Response(try await self.download(request, to: destination, progress: progress), bodyObject: destination)
        }
    }
}
