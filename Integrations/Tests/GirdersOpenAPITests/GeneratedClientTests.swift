#if os(macOS) || os(Linux)  // starts processes: macOS and Linux only
import Foundation
import GirdersDemoAPI
import GirdersNetworking
import GirdersOpenAPI
import OpenAPIRuntime
import Testing

/// The client swift-openapi-generator made from the example app's API (`GirdersDemoAPI`: generated once,
/// committed), sending through ``GirdersClientTransport`` to the example app's own server, with Girders'
/// single-flight token refresh in the middle.
@Suite(.serialized)
struct GeneratedClientTests {
    typealias Tokens = Components.Schemas.TokenPair

    enum Failure: Error {
        case unexpected(String)
    }

    /// Signs requests with the access token; refreshes the pair through the generated client's own `refresh`.
    struct DemoAuthenticator: Authenticator {
        let plain: Client

        func apply(_ tokens: Tokens, to request: Request) -> Request {
            request.settingHeader("Authorization", "Bearer \(tokens.accessToken)")
        }

        func refresh(_ tokens: Tokens) async throws -> Tokens {
            switch try await plain.refresh(body: .json(.init(refreshToken: tokens.refreshToken))) {
            case .ok(let ok): return try ok.body.json
            case let other: throw Failure.unexpected("refresh: \(other)")
            }
        }
    }

    let server: ServerProcess
    let plain: Client

    init() throws {
        // Two requests per access token, so the refresh comes in the middle of the session below.
        server = try ServerProcess.demo(accessUses: 2)
        plain = Client(serverURL: server.url, transport: GirdersClientTransport(client: HTTPClient()))
    }

    func signedIn() async throws -> Client {
        try await Self.signedIn(plain, server.url)
    }

    /// A client whose calls carry the token pair `plain` signed in with, refreshed when the server refuses it.
    static func signedIn(_ plain: Client, _ serverURL: URL) async throws -> Client {
        let tokens: Tokens
        switch try await plain.login(body: .json(.init(username: "ada", password: "lovelace"))) {
        case .ok(let ok): tokens = try ok.body.json
        case let other: throw Failure.unexpected("login: \(other)")
        }
        let authentication = AuthenticationInterceptor(DemoAuthenticator(plain: plain), credential: tokens)
        let client = HTTPClient(interceptors: [authentication])
        return Client(serverURL: serverURL, transport: GirdersClientTransport(client: client))
    }

    @Test func aSessionRefreshesItsTokenMidwayAndEveryCallGetsItsDocumentedAnswer() async throws {
        defer { server.stop() }
        let client = try await signedIn()
        var created: [Components.Schemas.Item] = []
        for name in ["a", "b", "c"] {  // the third POST meets a 401, is refreshed and sent again with its body
            guard case .created(let reply) = try await client.createItem(body: .json(.init(name: name))) else {
                throw Failure.unexpected("createItem \(name)")
            }
            created.append(try reply.body.json)
        }
        #expect(created.map(\.name) == ["a", "b", "c"])
        guard case .ok(let listed) = try await client.listItems() else { throw Failure.unexpected("listItems") }
        #expect(try listed.body.json.map(\.id) == created.map(\.id))
        let missing = try await client.deleteItem(path: .init(id: 999))
        guard case .notFound(let notFound) = missing else { throw Failure.unexpected("deleteItem: \(missing)") }
        #expect(try notFound.body.json.message == "no such item")
        guard case .noContent = try await client.deleteItem(path: .init(id: created[0].id)) else {
            throw Failure.unexpected("deleteItem \(created[0].id)")
        }
        guard case .ok(let stats) = try await plain.getStats() else { throw Failure.unexpected("getStats") }
        let counted = try stats.body.json
        #expect(counted.logins == 1)
        #expect(counted.refreshes == 2, "after the third and the fifth authorised call")
    }

    @Test func aWrongPasswordIsTheDocumentedForbiddenAnswerNotAnError() async throws {
        defer { server.stop() }
        let answer = try await plain.login(body: .json(.init(username: "ada", password: "wrong")))
        guard case .forbidden(let forbidden) = answer else { throw Failure.unexpected("login: \(answer)") }
        #expect(try forbidden.body.json.message == "wrong user name or password")
    }

    @Test func tokensThatExpireAtOnceAreRefreshedOnceForParallelCalls() async throws {
        server.stop()
        let server = try ServerProcess.demo(accessUses: 100)
        defer { server.stop() }
        let plain = Client(serverURL: server.url, transport: GirdersClientTransport(client: HTTPClient()))
        let client = try await GeneratedClientTests.signedIn(plain, server.url)
        _ = try await plain.expireTokens()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let answer = try await client.listItems()
                    guard case .ok = answer else { throw Failure.unexpected("listItems: \(answer)") }
                }
            }
            try await group.waitForAll()
        }
        guard case .ok(let stats) = try await plain.getStats() else { throw Failure.unexpected("getStats") }
        #expect(try stats.body.json.refreshes == 1, "eight 401s, one refresh: the interceptor's single flight")
    }
}
#endif
