#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersConfig
import GirdersNetworking
import GirdersTestServers
import Testing

/// The README's HTTP example types, as printed there.
enum ReadmeHTTP {
    // --- README types begin ---
    struct LoginReply: Decodable, Sendable {
        let token: String
    }

    struct SecureRequestGenerator: RequestGenerator {
        func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
            request(withMethod: method) |> withJsonSupport |> withBasicAuth
        }
    }

    enum AccountEndpoint: ServiceEndpoint {
        case login(String, String)

        var path: String { "/login" }
        var method: HTTPMethod { .post }
        var parameters: Any? {
            switch self {
            case .login(let user, let password): ["user": user, "password": password]
            }
        }
        var requestGenerator: any RequestGenerator { SecureRequestGenerator() }
    }
    // --- README types end ---
}

extension UsesNetworkingDefaults {
    /// The GirdersNetworking HTTP example from README.md, run against the loopback server.
    struct ReadmeHTTPExampleTests {
        typealias AccountEndpoint = ReadmeHTTP.AccountEndpoint
        typealias LoginReply = ReadmeHTTP.LoginReply

        @Test func theReadmeHTTPExampleRunsWithAsyncAwaitAndACompletionHandler() async throws {
            let server = try LoopbackServer.get()
            let configuration = try makeConfiguration([
                "baseUrl": server.url("").absoluteString, "auth.username": "ada", "auth.password": "secret",
            ])
            defer { NetworkingDefaults.configuration = nil }
            let tokens = LockedList<String?>()

            // --- README example begins ---
            NetworkingDefaults.configuration = configuration  // in an app: Configuration.sharedInstance
            let httpClient = HTTPClient()
            let request = Request(endpoint: AccountEndpoint.login("ada", "secret"))

            let response: Response<LoginReply> = try await httpClient.executeRequest(request: request)
            print(response.statusCode, response.bodyObject?.token ?? "")  // 200 token-for-ada

            httpClient.executeRequest(request: request) { (result: Result<Response<LoginReply>, Error>) in
                // runs exactly once, on the main queue (pass `queue:` for another)
                tokens.append(try? result.get().bodyObject?.token)
            }
            // --- README example ends ---

            #expect(response.statusCode == 200)
            #expect(response.bodyObject?.token == "token-for-ada")
            try await waitUntil { !tokens.values.isEmpty }
            #expect(tokens.values == ["token-for-ada"])
        }
    }
}
#endif
