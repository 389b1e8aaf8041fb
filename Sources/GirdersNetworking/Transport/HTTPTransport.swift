/// Sends one request and returns the raw response: the seam where another HTTP stack (or a test double) plugs in.
///
/// A transport does not follow redirects, validate statuses or decode bodies; ``HTTPClient`` does that on top,
/// identically for every transport. It maps its failures to ``ResponseError`` transport cases and stops with
/// ``ResponseError/cancelled(url:)`` when the calling Swift `Task` is cancelled.
public protocol HTTPTransport: Sendable {
    /// Sends `request` once and returns the response, 3xx included.
    func send(_ request: Request) async throws(ResponseError) -> HTTPResponse
}
