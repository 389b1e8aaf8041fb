/// The error a typed request decoded from the body of a response it rejected: its own error type (the
/// ``DeclaredRequest/Failure`` of a ``TypedRequest`` or ``NoContentRequest``), with the response it came from.
///
/// The client throws it as ``ResponseError/rejected(_:)``; ``ResponseError/failure(as:)`` reads the value back:
///
/// ```swift
/// do {
///     let user = try await client.send(GetUser(id: 7))
/// } catch let error {
///     if let apiError = error.failure(as: APIError.self) { show(apiError.message) }
/// }
/// ```
///
/// Two values are equal when their responses are equal and the decoded values describe themselves alike.
public struct FailureBody: Sendable, Equatable, CustomStringConvertible {
    /// The decoded error.
    public let value: any Error & Sendable
    /// The rejected response whose body it was decoded from.
    public let response: HTTPResponse

    /// A decoded failure and its response.
    public init(_ value: any Error & Sendable, response: HTTPResponse) {
        self.value = value
        self.response = response
    }

    /// The decoded value's own description.
    public var description: String { String(describing: value) }

    /// Equal when the responses are and the decoded values describe themselves the same way (the value's type is
    /// erased, so it cannot be compared directly).
    public static func == (lhs: FailureBody, rhs: FailureBody) -> Bool {
        lhs.response == rhs.response && lhs.description == rhs.description
    }
}

extension ResponseError {
    /// The error a typed request decoded from a rejected response, when this is ``rejected(_:)`` with a value of
    /// type `type`; otherwise `nil`.
    public func failure<Failure: Error>(as type: Failure.Type = Failure.self) -> Failure? {
        guard case .rejected(let body) = self else { return nil }
        return body.value as? Failure
    }

    /// The response behind an unacceptable status (one of the status cases or ``unacceptableStatusCode(_:)``),
    /// or `nil` for every other failure: what a typed request's failure body is decoded from.
    var rejectedResponse: HTTPResponse? {
        switch self {
        case .rejected, .unacceptableContentType, .emptyBody, .decodingFailed, .noHandler: nil
        default: response  // the status cases; every other case has no response
        }
    }
}
