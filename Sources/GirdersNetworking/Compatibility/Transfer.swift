public import Foundation

/// A running upload or download whose progress arrives as an `AsyncStream`: the same job as
/// ``HTTP/upload(_:progress:)`` and ``HTTP/download(_:to:progress:)``, kept for code written against it.
///
/// ```swift
/// let transfer = client.downloadTransfer(request, to: destination)
/// for await step in transfer.progress { bar.value = step.fractionCompleted ?? 0 }
/// let response = try await transfer.response   // response.fileURL == destination
/// ```
///
/// The stream finishes when the transfer ends, however it ends. ``cancel()`` stops the transfer;
/// ``response`` then throws ``ResponseError/cancelled(url:)`` and a partial download is deleted.
@available(
    *, deprecated,
    message: "use upload(_:progress:) or download(_:to:progress:) in a Task; cancel the Task to cancel the transfer"
)
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

@available(*, deprecated, message: "use upload(_:progress:) or download(_:to:progress:)")
extension HTTP {
    /// ``upload(_:progress:)`` with progress as an `AsyncStream`.
    @available(*, deprecated, message: "use upload(_:progress:) in a Task; cancel the Task to cancel the transfer")
    public func uploadTransfer(_ request: Request) -> Transfer {
        Transfer(request: request, downloadDestination: nil) { request, options throws(ResponseError) in
            try await self.perform(request, options: options)
        }
    }

    /// ``download(_:to:progress:)`` with progress as an `AsyncStream`.
    @available(
        *, deprecated, message: "use download(_:to:progress:) in a Task; cancel the Task to cancel the transfer"
    )
    public func downloadTransfer(_ request: Request, to destination: URL) -> Transfer {
        Transfer(request: request, downloadDestination: destination) { request, options throws(ResponseError) in
            try await self.perform(request, options: options)
        }
    }
}
