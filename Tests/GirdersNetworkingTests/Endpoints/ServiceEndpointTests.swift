#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersConfig
import GirdersNetworking
import GirdersTestServers
import GirdersTestLocks
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Tests that install ``NetworkingDefaults/configuration`` run one after another, as it is process-wide.
@Suite(.serialized, NetworkingDefaultsLock()) enum UsesNetworkingDefaults {}

/// Writes a GirdersSwift-style `Configuration.plist` into a new temporary folder and loads it.
func makeConfiguration(_ entries: [String: String]) throws -> Configuration {
    let folder = try temporaryFolder()
    let data = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
    try data.write(to: folder.appendingPathComponent("Configuration.plist"))
    return try Configuration(directory: folder, processEnvironment: [:])
}

/// GirdersSwift's generator, as its README wrote it.
struct SecureRequestGenerator: RequestGenerator {
    func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
        request(withMethod: method) |> withJsonSupport |> withBasicAuth
    }
}

/// GirdersSwift's endpoint shape, with the base URL from the configuration.
enum AccountEndpoint: ServiceEndpoint {
    case login(String, String)
    case createAccount(String, String, String)
    case profile(id: Int, fields: [String])

    var path: String {
        switch self {
        case .login, .createAccount: "/echo"
        case .profile(let id, _): "/echo/profiles/\(id)"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .login, .createAccount: .post
        case .profile: .get
        }
    }

    var parameters: Any? {
        switch self {
        case .login(let user, let password): ["user": user, "password": password]
        case .createAccount(let user, let password, let email): ["user": user, "password": password, "email": email]
        case .profile(_, let fields): ["fields": fields]
        }
    }

    var requestGenerator: any RequestGenerator { SecureRequestGenerator() }
}

/// An endpoint with its own base URL and nothing but a path.
struct StatusEndpoint: ServiceEndpoint {
    let base: URL
    var baseURL: URL { base }
    var path: String { "status/204" }
}

extension UsesNetworkingDefaults {
    struct ServiceEndpointTests {
        let server: LoopbackServer

        init() throws {
            server = try LoopbackServer.get()
        }

        func withDefaults<Result>(
            _ entries: [String: String]?, _ body: () async throws -> Result
        ) async throws -> Result {
            NetworkingDefaults.configuration = try entries.map(makeConfiguration)
            defer { NetworkingDefaults.configuration = nil }
            return try await body()
        }

        @Test func girdersSwiftsEndpointShapeSendsBasicAuthJSONAndParametersToTheConfiguredBaseURL() async throws {
            let entries = ["baseUrl": server.url("").absoluteString, "auth.username": "Test", "auth.password": "1234"]
            let echo: Response<Echo> = try await withDefaults(entries) {
                let request = Request(endpoint: AccountEndpoint.createAccount("ada", "pw", "ada@example.com"))
                return try await makeClient().executeRequest(request: request)
            }
            let received = try #require(echo.bodyObject)
            #expect(received.method == "POST")
            #expect(received.header("Authorization") == "Basic VGVzdDoxMjM0")
            #expect(received.header("Accept") == "application/json")
            #expect(received.header("Content-Type") == "application/json")
            #expect(received.body == #"{"email":"ada@example.com","password":"pw","user":"ada"}"#)
        }

        @Test func getParametersGoToTheQueryWithRepeatedNamesForArrays() async throws {
            let entries = ["baseURL": server.url("/").absoluteString, "auth.username": "u", "auth.password": "p"]
            let echo: Response<Echo> = try await withDefaults(entries) {
                try await makeClient().executeRequest(
                    request: Request(endpoint: AccountEndpoint.profile(id: 7, fields: ["a b", "c"])))
            }
            #expect(echo.bodyObject?.path == "/echo/profiles/7")
            #expect(echo.bodyObject?.query == "fields=a%20b&fields=c")
            #expect(echo.bodyObject?.body == "")
        }

        @Test func aMissingBaseURLIsAThrownErrorNamingTheKeysNotACrash() async throws {
            let error = try await withDefaults(["auth.username": "u", "auth.password": "p"]) {
                await responseError {
                    let _: Response<Data> = try await makeClient().executeRequest(
                        request: Request(endpoint: AccountEndpoint.login("a", "b")))
                }
            }
            guard case .invalidRequest(let reason) = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("AccountEndpoint has no baseURL: no URL at baseUrl or baseURL"))
            #expect(reason.contains("Configuration.plist"))
            #expect(throws: ResponseError.self) { try Request(validating: AccountEndpoint.login("a", "b")) }
        }

        @Test func withoutAnInstalledConfigurationTheReasonSaysSo() async throws {
            let request = Request(endpoint: AccountEndpoint.login("a", "b"))
            #expect(request.failureReason?.contains("NetworkingDefaults.configuration is not set") == true)
            let explicit = Request(MutableRequest(url: server.url("/echo")) |> withBasicAuth)
            #expect(explicit.failureReason?.contains("withBasicAuth reads auth.username") == true)
        }

        @Test func aMissingCredentialKeyNamesTheKey() async throws {
            let request = try await withDefaults(["baseUrl": server.url("").absoluteString, "auth.username": "u"]) {
                Request(endpoint: AccountEndpoint.login("a", "b"))
            }
            #expect(request.failureReason?.contains("auth.password") == true)
        }

        @Test func anEndpointWithItsOwnBaseURLNeedsOnlyAPath() async throws {
            let endpoint = StatusEndpoint(base: server.url("/"))
            let request = try Request(validating: endpoint)
            #expect(request.fullURL == server.url("/status/204"))
            #expect(request.method == .get && request.body == nil)
            let response: Response<EmptyResponse> = try await makeClient().executeRequest(request: request)
            #expect(response.statusCode == 204)
        }

        /// A client made with no jar named uses ``CookieJars/shared``, as GirdersSwift read `HTTPCookieStorage.shared`;
        /// the headers are added when the request is sent, for the URL it is sent to.
        @Test func sessionCookiesComeFromTheDefaultJarForTheRequestURL() async throws {
            let url = server.url("/echo")
            let path = "/echo/session-" + UUID().uuidString.prefix(8)
            let scoped = server.url(path)
            CookieJars.shared.store(
                ["XSRF-TOKEN=x-token; Path=\(path)", "JSESSIONID=session-1; Path=\(path)"], from: scoped)
            defer {
                CookieJars.shared.store(
                    ["XSRF-TOKEN=; Max-Age=0; Path=\(path)", "JSESSIONID=; Max-Age=0; Path=\(path)"], from: scoped)
            }
            let request = Request(MutableRequest(url: scoped) |> withSessionCookie)
            #expect(request.headers.fields.isEmpty)
            let client = HTTPClient(transport: TransportKind.underTest.transport())
            let echo: Response<Echo> = try await client.executeRequest(request: request)
            #expect(echo.bodyObject?.header("X-XSRF-TOKEN") == "x-token")
            #expect(echo.bodyObject?.header("Cookie") == "JSESSIONID=session-1")
            let elsewhere: Response<Echo> = try await client.executeRequest(
                request: Request(MutableRequest(url: url) |> withSessionCookie))
            #expect(elsewhere.bodyObject?.header("X-XSRF-TOKEN") == nil)
        }
    }
}
#endif
