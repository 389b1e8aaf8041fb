/// How to sign requests with a credential and get a new one: the part of authentication an app writes.
///
/// ```swift
/// struct TokenAuthenticator: Authenticator {
///     let session: SessionAPI
///     func apply(_ token: String, to request: Request) -> Request {
///         request.settingHeader("Authorization", "Bearer \(token)")
///     }
///     func refresh(_ token: String) async throws -> String {
///         try await session.refreshToken(expired: token)
///     }
/// }
/// let client = HTTPClient(interceptors: [AuthenticationInterceptor(TokenAuthenticator(session: api), credential: token)])
/// ```
public protocol Authenticator: Sendable {
    /// The credential type, for example a token or a token pair.
    associatedtype Credential: Sendable

    /// `request` signed with `credential`.
    func apply(_ credential: Credential, to request: Request) -> Request

    /// A new credential to replace `credential`, which the server refused.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether `failure` means the credential was refused; `401 Unauthorized` by default.
    func isAuthenticationFailure(_ failure: ResponseError) -> Bool
}

extension Authenticator {
    /// `401 Unauthorized`.
    public func isAuthenticationFailure(_ failure: ResponseError) -> Bool {
        failure.statusCode == 401
    }
}
