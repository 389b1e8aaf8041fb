import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``TypedRequest``s and ``NoContentRequest``s are sent (the work of the `send(_:)` forms): their edits and
/// rejection codes applied, then ``HTTP/perform(_:)``, then their own error read from a rejected response.
extension HTTP {
    /// The request's edits and rejection codes applied, sent, and a rejected status turned into its failure body.
    func perform<Declared: DeclaredRequest>(declared: Declared) async throws(ResponseError) -> HTTPResponse {
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
