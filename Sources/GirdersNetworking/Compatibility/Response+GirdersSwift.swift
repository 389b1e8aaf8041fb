public import Foundation

/// GirdersSwift's `Response` members, kept for code that builds responses (mocks) or reads `responseHeaders`.
extension Response {
    /// GirdersSwift's headers dictionary (`HTTPURLResponse.allHeaderFields`): each name once, as the server spelled
    /// it, repeated fields joined with `", "`.
    @available(*, deprecated, message: "use headers, which looks names up case-insensitively: headers[\"ETag\"]")
    public var responseHeaders: [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (name, value) in headers.dictionary { result[name] = value }
        return result
    }

    /// GirdersSwift's memberwise initialiser, for mocks: a `GET` of `url` answered with `statusCode`. Header names
    /// and values that are not strings are dropped.
    @available(*, deprecated, message: "use Response(_:bodyObject:) with an HTTPResponse")
    public init(statusCode: Int, body: Data?, bodyObject: T?, responseHeaders: [AnyHashable: Any], url: URL?) {
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in responseHeaders { fields[name] = value }
        let request = Request(MutableRequest(method: .get, url: url ?? Request.placeholderURL))
        let raw = HTTPResponse(
            statusCode: statusCode, headers: HTTPHeaders(fields), body: body ?? Data(), url: url, request: request)
        self.init(raw, bodyObject: bodyObject)
    }
}
