public import Foundation

/// A canned answer for `StubTransport` (GirdersNetworkingTesting): a response (status, headers, body) or a transport error, after an
/// optional delay.
public struct StubResponse: Sendable, Equatable {
    /// The HTTP status the stub answers with; 200 by default.
    public var statusCode: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body bytes delivered as the response's body (empty by default).
    public var body: Data
    /// A transport error to fail with instead of responding (for example ``ResponseError/timedOut(url:)``).
    public var error: ResponseError?
    /// Seconds to wait before answering; the wait ends early, with ``ResponseError/cancelled(url:)``, when the
    /// call is cancelled.
    public var delay: Double

    /// A response.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], body: Data = Data(), delay: Double = 0) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.error = nil
        self.delay = delay
    }

    /// A JSON response: the body with `Content-Type: application/json`.
    public static func json(_ text: String, statusCode: Int = 200, delay: Double = 0) -> StubResponse {
        StubResponse(
            statusCode: statusCode, headers: ["Content-Type": "application/json"], body: Data(text.utf8), delay: delay)
    }

    /// A stub that fails with `error` (after `delay` seconds) instead of answering, as a real transport would.
    public static func failure(_ error: ResponseError, delay: Double = 0) -> StubResponse {
        var stub = StubResponse(delay: delay)
        stub.error = error
        return stub
    }
}

/// An endpoint with a sample response, which `StubTransport(endpoints:)` (GirdersNetworkingTesting) serves (in the style of Moya's
/// `sampleData`).
public protocol StubbedEndpoint: ServiceEndpoint {
    /// What the stub transport answers for this endpoint.
    var sampleResponse: StubResponse { get }
}
