#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// GirdersSwift's networking call shapes, written as a GirdersSwift app writes them (Swift 5 language mode, the
// protocol types bare, `get { return ... }` accessors), with the two documented idiom changes only: Swift's own
// `Result` (`.success` / `.failure`) and lower-case enum cases.

enum WalletEndpoint {
    case topUp(amount: Int)
    case cardState
    case history(page: Int)
    case unsendable
}

struct SignedRequestGenerator: RequestGenerator {
    func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
        return request(withMethod: method) |> withJsonSupport |> withClientTag
    }
}

/// A generator function of the app's own, piped like GirdersSwift's.
func withClientTag(_ request: MutableRequest) -> MutableRequest {
    var request = request
    request.updateHTTPHeaderFields(["X-Client": "wallet-app"])
    return request
}

extension WalletEndpoint: ServiceEndpoint {
    var baseURL: URL {
        get {
            return EchoServer.endpointBaseURL
        }
    }

    var method: HTTPMethod {
        get {
            switch self {
            case .topUp, .unsendable: return .POST
            case .cardState, .history: return .GET
            }
        }
    }

    var path: String {
        switch self {
        case .topUp: return "/echo/wallet/top-up"
        case .cardState: return "/echo/wallet/card"
        case .history: return "/echo/wallet/history"
        case .unsendable: return "/echo/wallet/never"
        }
    }

    var requestGenerator: RequestGenerator {
        get {
            return SignedRequestGenerator()
        }
    }

    var parameters: Any? {
        get {
            switch self {
            case .topUp(let amount):
                let parameters: [String: AnyObject] = ["amount": amount as AnyObject, "token": "t0k3n" as AnyObject]
                return parameters
            case .cardState: return ["verbose": "yes"]
            case .history: return nil
            case .unsendable: return NSObject()
            }
        }
    }

    var queryParameters: Any? {
        get {
            if case .history(let page) = self {
                return [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "sort", value: "new first")]
            }
            return nil
        }
    }
}

typealias ResultHandler = ((Result<Response<[String: Any]>, Error>) -> Void)
typealias ErrorHandler = ((Error?) -> Void)

/// GirdersSwift's README pattern: a handler factory turning the result into callbacks.
func booleanHandler(result: @escaping (Bool) -> Void, error: @escaping ErrorHandler) -> ResultHandler {
    let handler: ResultHandler = { requestResult in
        switch requestResult {
        case .success:
            result(true)
        case .failure(let requestError):
            error(requestError)
        }
    }
    return handler
}

struct EndpointCallShapeTests {
    let httpClient = HTTPClient()

    /// Runs `request` with GirdersSwift's `executeRequest(request:completionHandler:)` and returns the echo.
    func send(_ request: Request) async -> Result<Response<[String: Any]>, Error> {
        await withCheckedContinuation { continuation in
            httpClient.executeRequest(
                request: request,
                completionHandler: { (result: Result<Response<[String: Any]>, Error>) in
                    continuation.resume(returning: result)
                })
        }
    }

    func echo(_ endpoint: WalletEndpoint) async throws -> Echo {
        let request = Request(endpoint: endpoint)
        let response = try HTTPClient.decodeEcho(await send(request).get())
        return response
    }

    @Test func aPostEndpointWithAnyObjectParametersSendsThemAsJSONWithAcceptJSON() async throws {
        let echo = try await echo(.topUp(amount: 20))
        #expect(echo.method == "POST")
        #expect(echo.headers["accept"] == ["application/json"])
        #expect(echo.headers["x-client"] == ["wallet-app"])
        let body = try JSONSerialization.jsonObject(with: Data(echo.body.utf8)) as? [String: Any]
        #expect(body?["amount"] as? Int == 20)
        #expect(body?["token"] as? String == "t0k3n")
    }

    @Test func aGetEndpointSendsParametersAndURLQueryItemsInTheQuery() async throws {
        #expect(try await echo(.cardState).query == "verbose=yes")
        #expect(try await echo(.history(page: 2)).query == "page=2&sort=new%20first")
    }

    @Test func parametersOfAnUnsupportedTypeAreAnInvalidRequestNamingTheProperty() async throws {
        let result = await send(Request(endpoint: WalletEndpoint.unsendable))
        guard case .failure(let error as ResponseError) = result, case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(reason.contains("the parameters of WalletEndpoint are a NSObject"))
    }

    @Test func theReadmesBooleanHandlerPatternWorks() async throws {
        let succeeded = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            httpClient.executeRequest(
                request: Request(endpoint: WalletEndpoint.topUp(amount: 1)),
                completionHandler: booleanHandler(
                    result: { continuation.resume(returning: $0) },
                    error: { _ in continuation.resume(returning: false) }))
        }
        #expect(succeeded)
    }
}

extension HTTPClient {
    /// The echo in a response decoded as GirdersSwift's `[String: Any]`.
    static func decodeEcho(_ response: Response<[String: Any]>) throws -> Echo {
        let object = try #require(response.bodyObject)
        return try JSONDecoder().decode(Echo.self, from: JSONSerialization.data(withJSONObject: object))
    }
}

struct CompletionHandlerTests {
    @Test func theCompletionHandlerFormRunsOnceOnTheGivenQueue() async throws {
        let queue = DispatchQueue(label: "girders.compat.completion")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        var calls: [Int?] = []
        let request = Request(endpoint: WalletEndpoint.cardState)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            HTTPClient().executeRequest(
                request: request, queue: queue,
                completionHandler: { (_: Result<Response<[String: Any]>, Error>) in
                    calls.append(DispatchQueue.getSpecific(key: key))
                    // Behind anything already queued: a second completion, had one been scheduled, runs first.
                    queue.async { continuation.resume() }
                })
        }
        #expect(calls == [7])
    }
}
#endif
