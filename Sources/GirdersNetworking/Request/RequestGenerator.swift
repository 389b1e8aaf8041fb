/// Pipes a value into a function: `request |> withJsonSupport |> withBasicAuth`.
precedencegroup GirdersPipePrecedence {
    associativity: left
    higherThan: AssignmentPrecedence
    lowerThan: TernaryPrecedence
}

/// The pipe operator generator functions are composed with.
infix operator |> : GirdersPipePrecedence

/// Applies `transform` to `value`: `value |> f` is `f(value)`. The value is handed over, not copied, so a chain of
/// generator functions edits one request in place.
@inlinable
public func |> <Input, Output>(value: consuming Input, transform: (consuming Input) throws -> Output) rethrows -> Output
{
    try transform(value)
}

/// A generator function: takes the request under construction and returns it changed. Functions written as
/// `(MutableRequest) -> MutableRequest` convert to it.
public typealias RequestTransform = @Sendable (consuming MutableRequest) -> MutableRequest

/// Makes the starting ``MutableRequest`` for a method; endpoints name one to share headers and authentication.
///
/// ```swift
/// struct SecureRequestGenerator: RequestGenerator {
///     func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
///         request(withMethod: method) |> withJsonSupport |> withBasicAuth
///     }
/// }
/// ```
public protocol RequestGenerator {
    /// The request every call with `method` starts from. The default, as in GirdersSwift, is
    /// `request(withMethod: method) |> withJsonSupport` (`Accept: application/json`).
    func generateRequest(withMethod method: HTTPMethod) -> MutableRequest
}

extension RequestGenerator {
    /// GirdersSwift's default: `request(withMethod: method) |> withJsonSupport`.
    public func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
        request(withMethod: method) |> withJsonSupport
    }

    /// An empty ``MutableRequest`` with `method`: the start of a pipe.
    public func request(withMethod method: HTTPMethod) -> MutableRequest {
        MutableRequest(method: method)
    }
}

/// The generator used when none is given, GirdersSwift's `StandardRequestGenerator`: the method and
/// `Accept: application/json`, nothing else.
public struct DefaultRequestGenerator: RequestGenerator, Sendable {
    /// The default generator.
    public init() {}
}
