import Foundation
import GirdersLog
import GirdersNetworking
import GirdersStorage

/// An access and refresh token pair, as the server sends it.
struct Tokens: Codable, Sendable {
    var accessToken: String
    var refreshToken: String
}

/// The token pair, kept in a `SecureStorage` across runs (the demo knows the protocol, not the store).
struct TokenStore: Sendable {
    let storage: any SecureStorage
    static let key = "tokens"

    var tokens: Tokens? { try? storage.value(Tokens.self, forKey: Self.key) }

    func save(_ tokens: Tokens) throws {
        try storage.set(tokens, forKey: Self.key)
    }

    func clear() throws {
        do { try storage.deleteData(forKey: Self.key) } catch .notFound { return }
    }
}

/// Sign-in and refresh, on a client without the authentication interceptor.
struct SessionEndpoint: ServiceEndpoint {
    enum Action { case login(user: String, password: String), refresh(String) }
    let baseURL: URL
    let action: Action

    var method: HTTPMethod { .post }
    var path: String {
        if case .login = action { return "/login" }
        return "/refresh"
    }
    var parameters: Any? {
        switch action {
        case .login(let user, let password): ["username": user, "password": password]
        case .refresh(let token): ["refreshToken": token]
        }
    }
}

/// Signs requests with the access token and, when the server answers 401, trades the stored refresh token for a
/// new pair. `AuthenticationInterceptor` runs one refresh for any number of requests refused at once.
struct TokenAuthenticator: Authenticator {
    let baseURL: URL
    let store: TokenStore
    let log: any LogProtocol
    let client: HTTPClient

    func apply(_ tokens: Tokens, to request: Request) -> Request {
        request.settingHeader("Authorization", "Bearer \(tokens.accessToken)")
    }

    func refresh(_ tokens: Tokens) async throws -> Tokens {
        // The stored pair, not `tokens`: a sign-in in this process may have replaced it since the client was made.
        guard let refreshToken = store.tokens?.refreshToken else { throw DemoError.notSignedIn }
        let call = Call<Tokens, SessionEndpoint>(
            endpoint: SessionEndpoint(baseURL: baseURL, action: .refresh(refreshToken)))
        let fresh = try await client.send(call)
        try store.save(fresh)
        log.info("refreshed the access token, now \(fresh.accessToken, privacy: .private)")
        return fresh
    }

    /// Signs in and keeps the token pair for the next run.
    func signIn(user: String, password: String) async throws {
        let call = Call<Tokens, SessionEndpoint>(
            endpoint: SessionEndpoint(baseURL: baseURL, action: .login(user: user, password: password)))
        let tokens = try await client.send(call)
        try store.save(tokens)
        log.info("signed in as \(user) with refresh token \(tokens.refreshToken, privacy: .private)")
    }
}
