import Foundation

/// The ``HTTP`` client: a transport (URLSession by default), redirects, validation and response handlers.
///
/// ```swift
/// let client = HTTPClient()
/// let strict = HTTPClient(validation: ResponseValidation(acceptableContentTypes: ["application/json"]))
/// let custom = HTTPClient(transport: MyTransport(), redirects: .doNotFollow)
/// ```
public final class HTTPClient: HTTP {
    /// The transport requests are sent through.
    public let transport: any HTTPTransport
    /// The handlers that decode bodies.
    public let responseHandlers: ResponseHandlerChain
    /// What counts as a successful response.
    public let validation: ResponseValidation
    /// Whether and how far redirects are followed.
    public let redirects: RedirectPolicy

    /// A client; every part has a default.
    public init(
        transport: any HTTPTransport = URLSessionTransport(),
        responseHandlers: ResponseHandlerChain = .standard,
        validation: ResponseValidation = ResponseValidation(),
        redirects: RedirectPolicy = .follow()
    ) {
        self.transport = transport
        self.responseHandlers = responseHandlers
        self.validation = validation
        self.redirects = redirects
    }

    /// Sends `request`, follows redirects under ``redirects``, validates the final response and returns it.
    public func perform(_ request: Request) async throws(ResponseError) -> HTTPResponse {
        if let reason = request.failureReason { throw .invalidRequest(reason: reason) }
        var current = request
        var followed = 0
        while true {
            if Task.isCancelled { throw .cancelled(url: current.fullURL) }
            let response = try await transport.send(current)
            guard let next = redirects.nextRequest(after: response, original: request) else {
                try validation.validate(response)
                return response
            }
            followed += 1
            if followed > redirects.maximumRedirects {
                throw .tooManyRedirects(url: request.fullURL, limit: redirects.maximumRedirects)
            }
            current = next
        }
    }
}
