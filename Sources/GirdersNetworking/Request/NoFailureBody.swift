/// The default ``DeclaredRequest/Failure``: the request declares no error body of its own, so a rejected response is
/// thrown as its status error and its body is never decoded.
///
/// A type of Girders' own rather than `Never`, because `Never` conforms to `Decodable` only from macOS 14, iOS 17,
/// tvOS 17 and watchOS 10: a default of `Never` broke every conformance that left `Failure` out below those
/// versions. No value of this type exists; decoding one always fails.
public enum NoFailureBody: Error, Decodable, Sendable, Hashable {
    /// Always throws: there is no value to decode.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(
            NoFailureBody.self,
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "the request declares no error body (its Failure is NoFailureBody)"))
    }
}
