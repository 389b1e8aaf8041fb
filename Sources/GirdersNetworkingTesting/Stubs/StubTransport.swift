import Foundation
public import GirdersNetworking
import GirdersSupport

/// An `HTTPTransport` that answers from stubs instead of the network. Stubbed responses go through the same
/// client pipeline as real ones: redirects, validation, decoding, retries and token refresh (Moya's stubs skipped
/// validation).
///
/// ```swift
/// let client = HTTPClient(transport: StubTransport(endpoints: [AccountEndpoint.login("ada", "pw")]))
/// let sequence = StubTransport(responses: [.json(#"{"error":1}"#, statusCode: 503), .json(#"{"ok":1}"#)])
/// ```
public final class StubTransport: HTTPTransport {
    private let responder: @Sendable (Request, Int) -> StubResponse?
    private let sent = LockedState<[Request]>([])

    /// Answers each request with `responder(request, n)`, where `n` counts the requests so far from 0; `nil`
    /// fails with ``ResponseError/cannotConnect(url:reason:)`` naming the request.
    public init(_ responder: @escaping @Sendable (_ request: Request, _ index: Int) -> StubResponse?) {
        self.responder = responder
    }

    /// Answers with `responses` in order, repeating the last.
    public convenience init(responses: [StubResponse]) {
        self.init { _, index in responses.isEmpty ? nil : responses[min(index, responses.count - 1)] }
    }

    /// Answers each endpoint's requests (same method and URL) with its ``StubbedEndpoint/sampleResponse``.
    public convenience init(endpoints: [any StubbedEndpoint]) {
        let table = endpoints.map { endpoint in (Request(endpoint: endpoint), endpoint.sampleResponse) }
        self.init { request, _ in
            table.first { $0.0.method == request.method && $0.0.fullURL == request.fullURL }?.1
        }
    }

    /// The requests answered so far, in order.
    public var requests: [Request] { sent.withLock { $0 } }

    /// Delivers the stubbed answer for `request` to `sink` (which holds it to the request's limits and keeps its
    /// body where the request asked, a download file included).
    public func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        let original = request.request
        let index = sent.withLock { sent in
            sent.append(original)
            return sent.count - 1
        }
        guard let stub = responder(original, index) else {
            throw .cannotConnect(
                url: request.url, reason: "no stub for \(request.method) \(request.url.absoluteString)")
        }
        if stub.delay > 0 {
            do {
                try await Task.sleep(nanoseconds: UInt64(stub.delay * 1_000_000_000))
            } catch {
                throw .cancelled(url: request.url)
            }
        }
        if Task.isCancelled { throw .cancelled(url: request.url) }
        if let error = stub.error { throw error }
        try sink.deliver(
            HTTPResponse(
                statusCode: stub.statusCode, headers: stub.headers, body: stub.body, url: request.url,
                request: original))
    }
}
