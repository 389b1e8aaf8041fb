/// What makes a response acceptable: its status code and, optionally, its media type.
public struct ResponseValidation: Sendable {
    /// The acceptable status codes; 200 to 299 by default.
    public var acceptableStatusCodes: Set<Int>
    /// Acceptable media types (`application/json`, `text/*`); `nil` (the default) accepts any. Checked only when
    /// there is a body.
    public var acceptableContentTypes: [String]?

    /// A validation; by default any 2xx with any content type.
    public init(acceptableStatusCodes: Set<Int> = Set(200..<300), acceptableContentTypes: [String]? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Throws the ``ResponseError`` for an unacceptable status or content type.
    public func validate(_ response: HTTPResponse) throws(ResponseError) {
        try validate(response, acceptingInstead: nil)
    }

    /// ``validate(_:)`` with a request's own status codes (``Request/acceptableStatusCodes``) in place of
    /// ``acceptableStatusCodes`` when it has them.
    func validate(_ response: HTTPResponse, acceptingInstead codes: Set<Int>?) throws(ResponseError) {
        guard (codes ?? acceptableStatusCodes).contains(response.statusCode) else { throw .forStatus(response) }
        guard let acceptable = acceptableContentTypes, !response.body.isEmpty else { return }
        let actual = response.mimeType ?? ""
        let matches = acceptable.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern.hasSuffix("/*") { return actual.hasPrefix(pattern.dropLast()) }
            return pattern == actual
        }
        if !matches { throw .unacceptableContentType(expected: acceptable, response) }
    }
}
