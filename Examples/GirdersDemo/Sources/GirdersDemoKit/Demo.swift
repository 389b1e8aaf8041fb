import Foundation
import GirdersDI
import GirdersHTTPCache
import GirdersLog
import GirdersNetworking
import GirdersStorage

/// What can stop a command before it reaches the server.
enum DemoError: Error, Equatable { case notSignedIn, usage(String) }

/// The demo's services and commands. Every service comes out of the GirdersDI container, so a test swaps any of
/// them with `container.withOverrides { ... }`.
public enum Demo {
    /// Registers the live services: the log, the secure store in `stateFolder`, the token store, the HTTP cache
    /// (in the secure store; sign-out empties it), the transport both HTTP clients send through (the platform's default; a test swaps in a
    /// recorder or a replay), the HTTP client (an RFC 9111 cache, token refresh, retries, logging with tokens
    /// redacted) and the live item repository.
    public static func register(in container: Container, settings: Settings, stateFolder: URL) {
        container.register((any HTTPTransport).self, lifetime: .singleton) { _ in HTTPClient.defaultTransport() }
        container.register((any LogProtocol).self, lifetime: .singleton) { _ in
            Logger(
                label: "girders-demo",
                destination: ConsoleDestination(stream: .standardError, minimumLevel: settings.logLevel, colors: .never)
            )
        }
        container.register((any SecureStorage).self, lifetime: .singleton) { _ in
            try FileSecureStorage(
                folder: stateFolder.appendingPathComponent("secrets"),
                key: .keyFile(stateFolder.appendingPathComponent("secrets.key")))
        }
        container.register(TokenStore.self, lifetime: .singleton) { TokenStore(storage: try $0.resolveOrThrow()) }
        container.register((any HTTPCacheStore).self) { EncryptedCacheStore(storage: try $0.resolveOrThrow()) }
        container.register(TokenAuthenticator.self, lifetime: .singleton) { resolver in
            TokenAuthenticator(
                baseURL: settings.baseURL, store: try resolver.resolveOrThrow(), log: try resolver.resolveOrThrow(),
                client: HTTPClient(transport: try resolver.resolveOrThrow(), monitors: [try monitor(resolver)]))
        }
        container.register(HTTPClient.self, lifetime: .singleton) { resolver in
            let authenticator: TokenAuthenticator = try resolver.resolveOrThrow()
            let saved = authenticator.store.tokens ?? Tokens(accessToken: "", refreshToken: "")
            return HTTPClient(
                transport: CachingTransport(try resolver.resolveOrThrow(), store: try resolver.resolveOrThrow()),
                interceptors: [
                    AuthenticationInterceptor(authenticator, credential: saved),
                    RetryPolicy(maximumAttempts: settings.retryAttempts, baseDelay: settings.retryBaseDelay),
                ],
                monitors: [try monitor(resolver)])
        }
        container.register((any ItemRepository).self) { resolver in
            LiveItemRepository(client: try resolver.resolveOrThrow(), baseURL: settings.baseURL)
        }
    }

    /// Logs every request at debug level, with what ``redaction`` names hidden.
    static func monitor(_ resolver: Container) throws -> LoggingMonitor {
        LoggingMonitor(logger: try resolver.resolveOrThrow(), level: .debug, redaction: redaction)
    }
    /// What the logs (and a recording of the traffic) hide: the tokens and the password, in headers and bodies.
    public static let redaction = Redaction(jsonKeys: ["accessToken", "refreshToken", "password"])

    /// Runs one command (`signin USER PASSWORD`, `signout`, `list`, `add NAME`, `delete ID`, `upload FILE`, `watch N`:
    /// the next N changes from the live feed) and
    /// returns what it printed, in `language` (the user's own when `nil`), with 0 on success and 1 on failure.
    public static func run(
        _ arguments: [String], container: Container, language: String? = nil
    ) async -> (output: String, status: Int32) {
        let texts = Texts.localized(language ?? Texts.translator.language)
        do {
            return (try await perform(arguments, container: container, texts: texts), 0)
        } catch DemoError.notSignedIn, ResponseError.refreshFailed {
            return (texts.notSignedIn, 1)
        } catch {
            return (texts.failed(String(describing: error)), 1)
        }
    }

    private static func perform(
        _ arguments: [String], container: Container, texts: Texts.Localized
    ) async throws
        -> String
    {
        // Resolved per command, so a sign-in does not build the client before the tokens it starts with exist.
        func items() throws -> any ItemRepository { try container.resolveOrThrow() }
        switch (arguments.first, arguments.count) {
        case ("signin", 3):
            let authenticator: TokenAuthenticator = try container.resolveOrThrow()
            try await authenticator.signIn(user: arguments[1], password: arguments[2])
            return texts.signedIn(arguments[1])
        case ("signout", 1):
            try (container.resolveOrThrow() as TokenStore).clear()
            try (container.resolveOrThrow() as any HTTPCacheStore).removeAll()
            return texts.signedOut
        case ("list", 1):
            let list = try await items().list()
            return ([texts.itemsHeader(list.count)] + list.map { texts.itemLine($0.id, $0.name) })
                .joined(separator: "\n")
        case ("add", 2):
            let item = try await items().create(named: arguments[1])
            return texts.created(item.id, item.name)
        case ("delete", 2):
            guard let id = Int(arguments[1]) else { throw DemoError.usage("delete needs a number") }
            try await items().delete(id: id)
            return texts.deleted(id)
        case ("upload", 2):
            let log: any LogProtocol = try container.resolveOrThrow()
            let receipt = try await items().upload(URL(fileURLWithPath: arguments[1])) { fraction in
                log.debug("upload \(Int(fraction * 100)) %")
            }
            return texts.uploaded(receipt.bytes, receipt.sha256)
        case ("watch", 2):
            guard let count = Int(arguments[1]) else { throw DemoError.usage("watch needs a number") }
            return try await items().changes(count: count).map { change in
                change.item.map { texts.created($0.id, $0.name) } ?? texts.deleted(change.id ?? 0)
            }.joined(separator: "\n")
        default:
            throw DemoError.usage(
                "signin USER PASSWORD | signout | list | add NAME | delete ID | upload FILE | watch N")
        }
    }
}
