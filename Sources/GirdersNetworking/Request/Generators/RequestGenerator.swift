public import Foundation
public import GirdersConfig

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
/// The requirements are GirdersSwift's, each with its default, so a GirdersSwift generator compiles unchanged and
/// its pipe stages name the generator's own (overridable) members:
///
/// ```swift
/// struct SecureRequestGenerator: RequestGenerator {
///     func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
///         request(withMethod: method) |> withJsonSupport |> withSSLCredentials |> withBasicAuth
///     }
/// }
/// ```
///
/// Inside a generator, a member hides the free function of the same name; the extension therefore forwards the
/// free functions' other forms (`withBasicAuth(username:password:)`, `withSSLCredentials(_:)` with
/// ``TLSCredentials``, `withSessionCookie(xsrfToken:sessionID:)`), so every stage reads the same in and out of one.
public protocol RequestGenerator {
    /// The request every call with `method` starts from. The default, as in GirdersSwift, is
    /// `request(withMethod: method) |> withJsonSupport` (`Accept: application/json`).
    func generateRequest(withMethod method: HTTPMethod) -> MutableRequest

    /// An empty ``MutableRequest`` with `method`: the start of a pipe.
    func request(withMethod method: HTTPMethod) -> MutableRequest

    /// Basic authentication from the configuration; the default is the free ``withBasicAuth(_:)``.
    func withBasicAuth(request: MutableRequest) -> MutableRequest

    /// `Accept: application/json`; the default is the free ``withJsonSupport(_:)``.
    func withJsonSupport(request: MutableRequest) -> MutableRequest

    /// TLS credentials from the configuration; the default is the free ``withSSLCredentials(_:)-(MutableRequest)``.
    func withSSLCredentials(request: MutableRequest) -> MutableRequest
}

extension RequestGenerator {
    /// GirdersSwift's default: `request(withMethod: method) |> withJsonSupport`.
    public func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
        request(withMethod: method) |> withJsonSupport
    }

    /// An empty ``MutableRequest`` with `method`.
    public func request(withMethod method: HTTPMethod) -> MutableRequest {
        MutableRequest(method: method)
    }

    /// The free ``withBasicAuth(_:)``: `auth.username` and `auth.password` from the configuration.
    public func withBasicAuth(request: MutableRequest) -> MutableRequest {
        GirdersNetworking.withBasicAuth(request)
    }

    /// The free ``withJsonSupport(_:)``.
    public func withJsonSupport(request: MutableRequest) -> MutableRequest {
        GirdersNetworking.withJsonSupport(request)
    }

    /// The free ``withSSLCredentials(_:)-(MutableRequest)``: `caServer`, `clientP12` and `clientP12Password`.
    public func withSSLCredentials(request: MutableRequest) -> MutableRequest {
        GirdersNetworking.withSSLCredentials(request)
    }

    /// GirdersSwift's session cookie stage: the free ``withSessionCookie(_:)``.
    public func withSessionCookie(request: MutableRequest) -> MutableRequest {
        GirdersNetworking.withSessionCookie(request)
    }

    /// The configuration the default stages read: ``NetworkingDefaults/configuration``.
    public func configuration() -> (any ConfigurationReading)? {
        NetworkingDefaults.configuration
    }

    // The free functions' other forms, which the members above would otherwise hide inside a generator.

    /// The free ``withBasicAuth(username:password:)``.
    public func withBasicAuth(username: String, password: String) -> RequestTransform {
        GirdersNetworking.withBasicAuth(username: username, password: password)
    }

    /// The free ``withBasicAuth(from:usernameKey:passwordKey:)``.
    public func withBasicAuth(
        from configuration: any ConfigurationReading, usernameKey: String = "auth.username",
        passwordKey: String = "auth.password"
    ) -> RequestTransform {
        GirdersNetworking.withBasicAuth(from: configuration, usernameKey: usernameKey, passwordKey: passwordKey)
    }

    /// The free ``withSSLCredentials(_:)-(TLSCredentials)``.
    public func withSSLCredentials(_ credentials: TLSCredentials) -> RequestTransform {
        GirdersNetworking.withSSLCredentials(credentials)
    }

    /// The free ``withSSLCredentials(from:bundle:)``.
    public func withSSLCredentials(
        from configuration: any ConfigurationReading, bundle: Bundle = .main
    )
        -> RequestTransform
    {
        GirdersNetworking.withSSLCredentials(from: configuration, bundle: bundle)
    }

    /// The free ``withSessionCookie(xsrfToken:sessionID:)``.
    public func withSessionCookie(xsrfToken: String?, sessionID: String?) -> RequestTransform {
        GirdersNetworking.withSessionCookie(xsrfToken: xsrfToken, sessionID: sessionID)
    }
}

/// The generator used when none is given, GirdersSwift's `StandardRequestGenerator`: the method and
/// `Accept: application/json`, nothing else.
public struct DefaultRequestGenerator: RequestGenerator, Sendable {
    /// The default generator.
    public init() {}
}
