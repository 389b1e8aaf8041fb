#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersConfig
import GirdersNetworking
import GirdersStorage
import GirdersTestLocks
import GirdersTrema
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The GirdersSwift README's remaining call shapes, in Swift 5 mode, with the two idiom changes only.

/// The README's generator with every stage: inside a generator the stages are its own members.
struct SecureRequestGenerator: RequestGenerator {
    func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
        return request(withMethod: method) |> withJsonSupport |> withSSLCredentials |> withBasicAuth
    }
}

/// The README's payment endpoint as the README declares it: an `NSURL` base and `[String: AnyObject]` parameters
/// (GirdersSwift's own protocol never read those declarations; Girders' associated types do).
enum PaymentEndpoint {
    case rechargeCredit
    case checkCardStatus
}

extension PaymentEndpoint: ServiceEndpoint {
    var baseURL: NSURL {
        get {
            return NSURL(string: EchoServer.endpointBaseURL.absoluteString) ?? NSURL(fileURLWithPath: "/")
        }
    }

    var method: HTTPMethod {
        get {
            return .POST
        }
    }

    var path: String {
        if self == .rechargeCredit {
            return "/echo/rechargeCredit/"
        } else {
            return "/echo/checkCardStatus/"
        }
    }

    var requestGenerator: RequestGenerator {
        get {
            return SecureRequestGenerator()
        }
    }

    var parameters: [String: AnyObject] {
        get {
            return ["token": "someToken" as AnyObject]
        }
    }
}

/// The README's account endpoint: associated values carry the parameters.
enum AccountEndpoint: ServiceEndpoint {
    case login(String, String)
    case createAccount(String, String, String)

    var baseURL: URL { return EchoServer.endpointBaseURL }
    var path: String { return "/echo/accounts" }
    var method: HTTPMethod { return .POST }
    var parameters: Any? {
        switch self {
        case .login(let user, let password): return ["user": user, "password": password]
        case .createAccount(let name, let email, let password):
            return ["name": name, "email": email, "password": password]
        }
    }
}

/// The README's error handler factory: a 401 is told apart by comparing with the case.
func standardErrorHandler(refresh: @escaping () -> Void, _ error: @escaping ErrorHandler) -> ErrorHandler {
    let handler: ErrorHandler = { anError in
        guard let responseError = anError as? ResponseError else {
            error(anError)
            return
        }
        if responseError == .unauthorized {
            refresh()
        } else {
            error(anError)
        }
    }
    return handler
}

/// The README's promise extension, written with a continuation instead of PromiseKit.
extension HTTPClient {
    func executeRequestAsync<T>(request: Request) async throws -> Response<T> {
        return try await withCheckedThrowingContinuation { continuation in
            executeRequest(
                request: request,
                completionHandler: { (result: Result<Response<T>, Error>) in
                    switch result {
                    case .failure(let error): continuation.resume(throwing: error)
                    case .success(let data): continuation.resume(returning: data)
                    }
                })
        }
    }
}

@Suite(.serialized, NetworkingDefaultsLock())
struct ReadmeSnippetTests {
    let httpClient = HTTPClient()

    func echo(_ request: Request) async throws -> Echo {
        let response: Response<[String: Any]> = try await httpClient.executeRequestAsync(request: request)
        return try HTTPClient.decodeEcho(response)
    }

    func installConfiguration(_ entries: [String: String]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("girders-compat-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
        try data.write(to: folder.appendingPathComponent("Configuration.plist"))
        NetworkingDefaults.configuration = try Configuration(directory: folder, processEnvironment: [:])
    }

    @Test func thePaymentEndpointSendsItsTokenWithJSONAndBasicAuthThroughTheFullPipe() async throws {
        try installConfiguration(["auth.username": "ada", "auth.password": "pw"])
        defer { NetworkingDefaults.configuration = nil }
        let rechargeCredit = PaymentEndpoint.rechargeCredit
        let request = Request(endpoint: rechargeCredit)
        let echo = try await echo(request)
        #expect(echo.method == "POST")
        #expect(echo.path == "/echo/rechargeCredit/")
        #expect(echo.headers["accept"] == ["application/json"])
        #expect(echo.headers["authorization"] == ["Basic " + Data("ada:pw".utf8).base64EncodedString()])
        #expect(echo.body.contains("\"token\":\"someToken\""))
    }

    @Test func endpointsUsedAsAProtocolTypeAreWrittenAnyServiceEndpoint() async throws {
        try installConfiguration(["auth.username": "ada", "auth.password": "pw"])
        defer { NetworkingDefaults.configuration = nil }
        // The members are associated types, so the protocol as a type is `any ServiceEndpoint` (a compiler error
        // with a fix-it where code wrote it bare).
        let endpoints: [any ServiceEndpoint] = [PaymentEndpoint.rechargeCredit, AccountEndpoint.login("ada", "pw")]
        var paths: [String] = []
        for endpoint in endpoints {
            paths.append(try await echo(Request(endpoint: endpoint)).path)
        }
        #expect(paths == ["/echo/rechargeCredit/", "/echo/accounts"])
    }

    @Test func configuredTLSCredentialsAreNeverDroppedInSilence() async throws {
        try installConfiguration(["auth.username": "ada", "auth.password": "pw", "caServer": "missing-ca.der"])
        defer { NetworkingDefaults.configuration = nil }
        await #expect(throws: ResponseError.self) {
            _ = try await echo(Request(endpoint: PaymentEndpoint.checkCardStatus))
        }
    }

    @Test func anEndpointsAssociatedValuesBecomeItsParameters() async throws {
        let createAccount = AccountEndpoint.createAccount("Ada", "ada@example.com", "pw")
        let request = Request(endpoint: createAccount)
        let body = try JSONSerialization.jsonObject(with: Data(try await echo(request).body.utf8)) as? [String: Any]
        #expect(body?["email"] as? String == "ada@example.com")
    }

    @Test func theMostFlexibleInitialiserSendsParametersAndQueryParameters() async throws {
        let server = try EchoServer.shared.get()
        let request = Request(
            URL: server.baseURL.appendingPathComponent("echo/register"), method: .POST,
            parameters: ["name": "Ada"], queryParameters: ["source": "app"], requestGenerator: SecureRequestGenerator())
        // No auth.username configured: the README generator's withBasicAuth reports it instead of sending without.
        await #expect(throws: ResponseError.self) { _ = try await echo(request) }
        let plain = Request(
            URL: server.baseURL.appendingPathComponent("echo/register"), method: .POST,
            parameters: ["name": "Ada"], queryParameters: ["source": "app"], requestGenerator: DefaultRequestGenerator()
        )
        let echoed = try await echo(plain)
        #expect(echoed.query == "source=app")
        #expect(echoed.body.contains("\"name\":\"Ada\""))
    }

    @Test func theStandardErrorHandlerRefreshesOnA401AndPassesOtherErrorsOn() async throws {
        let server = try EchoServer.shared.get()
        var refreshed = 0
        var passedOn: [Error?] = []
        let handler = standardErrorHandler(refresh: { refreshed += 1 }, { passedOn.append($0) })
        for status in [401, 500] {
            let request = Request(URL: server.baseURL.appendingPathComponent("status/\(status)"), method: .GET)
            do {
                let _: Response<Data> = try await httpClient.executeRequestAsync(request: request)
            } catch {
                handler(error)
            }
        }
        #expect(refreshed == 1)
        #expect(passedOn.count == 1)
        let passedOnError = try #require(passedOn.first as? ResponseError)
        #expect(passedOnError == .internalServerError)
        #expect(passedOnError != .unauthorized)
    }

    @Test func datesParseAndFormatAsInGirdersSwift() throws {
        let date = try #require("Thu, 09 May 2002 15:21:00 GMT".parseRFC822Timestamp())
        #expect("2002-05-09T15:21:00".parseRFC3339Timestamp() == date)
        #expect(date.toRFC822String() == "Thu, 09 May 2002 15:21:00 GMT")
        #expect(date.toRFC3339String() == "2002-05-09T15:21:00Z")
    }

    @Test func secureStorageSavesAndReadsStrings() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("girders-compat-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        // One initialiser on every platform: a file store here, so the test touches no real keychain.
        let storage = KeychainStorage(
            folder: home.appendingPathComponent("keychain"), keyFile: home.appendingPathComponent("keychain.key"))
        storage.save(string: "ada", forKey: "username")
        let username = storage.string(forKey: "username")
        #expect(username == "ada")
        storage.clearSecureStorage()
    }
}
#endif
