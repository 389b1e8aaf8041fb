public import Foundation

/// What a transfer asks of a transport besides the request: progress reports and where a download goes.
public struct TransferOptions: Sendable {
    /// Called with every progress step, on the thread that runs the transfer (the transport's, or on Linux the
    /// caller's own: see ``CurlTransport``); keep it short.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Where a successful (2xx) body is written instead of memory: the transport writes a temporary file beside it
    /// and returns it in ``HTTPResponse/fileURL``; ``HTTPClient`` moves it into place after validation.
    public var downloadDestination: URL?

    /// Options; none by default.
    public init(progress: (@Sendable (TransferProgress) -> Void)? = nil, downloadDestination: URL? = nil) {
        self.progress = progress
        self.downloadDestination = downloadDestination
    }

    /// Whether the options ask for nothing beyond a plain send.
    var isEmpty: Bool { progress == nil && downloadDestination == nil }
}
