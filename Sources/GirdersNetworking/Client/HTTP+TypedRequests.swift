import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sending ``TypedRequest``s and ``NoContentRequest``s: their edits and rejection codes applied, then
/// ``HTTP/perform(_:)``, then their body decoded or their own error read from a rejected response.
extension HTTP {
    /// Sends a typed request and returns its decoded ``TypedRequest/Success``; an empty body is
    /// ``ResponseError/emptyBody(_:)``, and a rejected status whose body decodes as the request's
    /// ``DeclaredRequest/Failure`` is ``ResponseError/rejected(_:)``.
    public func send<Typed: TypedRequest>(_ typed: Typed) async throws(ResponseError) -> Typed.Success {
        let raw = try await perform(declared: typed)
        guard let value = try responseHandlers.decode(raw, as: Typed.Success.self) else { throw .emptyBody(raw) }
        return value
    }

    /// Sends a request that must succeed without a body; a body is a ``ResponseError/decodingFailed(_:)``
    /// naming its size. (danielbyon/Requests had this check inverted.)
    public func send<NoContent: NoContentRequest>(_ typed: NoContent) async throws(ResponseError) {
        let raw = try await perform(declared: typed)
        guard raw.body.isEmpty else {
            throw .decodingFailed(
                DecodingFailure(
                    type: "\(NoContent.self)", codingPath: "(root)",
                    reason: "expected no content, got \(raw.body.count) bytes", response: raw))
        }
    }

    /// The request's edits and rejection codes applied, sent, and a rejected status turned into its failure body.
    private func perform<Declared: DeclaredRequest>(declared: Declared) async throws(ResponseError) -> HTTPResponse {
        var mutable = MutableRequest(declared.request)
        mutable.urlRequestEdits.append(URLRequestEdit(declared.editRequest))
        if let ranges = declared.rejectionCodes {
            mutable.acceptableStatusCodes = ResponseValidation.statusCodes(rejecting: ranges)
        }
        do {
            return try await perform(Self.edited(Request(mutable), declared.editComponents))
        } catch {
            guard let response = error.rejectedResponse,
                let failure = declared.decodeFailure(from: response, handlers: responseHandlers)
            else { throw error }
            throw .rejected(FailureBody(failure, response: response))
        }
    }

    private static func edited(_ request: Request, _ edit: (inout URLComponents) -> Void) -> Request {
        guard var components = URLComponents(url: request.fullURL, resolvingAgainstBaseURL: true) else {
            return request
        }
        let before = components
        edit(&components)
        guard components != before else { return request }
        guard let url = components.url else {
            var failed = MutableRequest(request)
            failed.fail("editComponents produced an invalid URL from \(request.fullURL.absoluteString)")
            return Request(failed)
        }
        var mutable = MutableRequest(request)
        mutable.url = url
        mutable.queryItems = []
        return Request(mutable)
    }
}
