/// Why a body could not be decoded: the type, the coding path, the decoder's reason and the start of the body.
public struct DecodingFailure: Sendable, Equatable, CustomStringConvertible {
    /// The type that was being decoded.
    public let type: String
    /// The coding path where decoding stopped, for example `items[2].price`; `(root)` for the top level.
    public let codingPath: String
    /// The decoder's explanation.
    public let reason: String
    /// The first 200 characters of the body.
    public let bodyPrefix: String
    /// The response whose body failed to decode.
    public let response: HTTPResponse

    /// A decoding failure.
    public init(type: String, codingPath: String, reason: String, response: HTTPResponse) {
        self.type = type
        self.codingPath = codingPath
        self.reason = reason
        self.bodyPrefix = response.bodyPrefix()
        self.response = response
    }

    /// A failure from a decoder's error, with the coding path pulled out of `DecodingError`.
    init(type: Any.Type, error: any Error, response: HTTPResponse) {
        var path: [any CodingKey] = []
        if let decodingError = error as? DecodingError {
            switch decodingError {
            case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
                .dataCorrupted(let context):
                path = context.codingPath
            @unknown default:
                break
            }
        }
        let codingPath =
            path.isEmpty
            ? "(root)" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        self.init(type: "\(type)", codingPath: codingPath, reason: describe(error), response: response)
    }

    /// `Type at path: reason`.
    public var description: String { "\(type) at \(codingPath): \(reason)" }
}
