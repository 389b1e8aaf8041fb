#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The patterns of DotDotDot, danielbyon/Requests and Dratini as their users write them, in Swift 5 mode, with
// Girders' names: our own example types, the loopback server behind them.

/// The server's error body, as an app's own error type.
struct ServiceFailure: Error, Decodable, Equatable {
    let status: Int
}

// MARK: DotDotDot: a request type with rejection codes, error parsing and the last word on the URL and request.

struct ProjectStatusRequest: TypedRequest {
    typealias Success = [String: Int]
    typealias Failure = ServiceFailure

    let code: Int

    var request: Request {
        return Request(URL: EchoServer.endpointBaseURL.appendingPathComponent("status/\(code)"), method: .get)
    }

    var rejectionCodes: [Range<Int>]? {
        return [100..<200, 300..<404, 405..<600]
    }

    func editComponents(_ components: inout URLComponents) {
        components.queryItems = [URLQueryItem(name: "edited", value: "yes")]
    }

    func editRequest(_ request: inout URLRequest) {
        request.setValue("dotdotdot", forHTTPHeaderField: "X-Client")
    }
}

// MARK: danielbyon/Requests: Success and Failure types, a no-content request, a completion handler.

struct RecipeRequest: TypedRequest {
    typealias Success = Echo
    typealias Failure = ServiceFailure

    let recipeID: String

    var request: Request {
        return Request(URL: EchoServer.endpointBaseURL.appendingPathComponent("echo/recipes/\(recipeID)"), method: .get)
    }
}

struct RemoveRecipeRequest: NoContentRequest {
    typealias Failure = ServiceFailure

    let status: Int

    var request: Request {
        return Request(URL: EchoServer.endpointBaseURL.appendingPathComponent("status/\(status)"), method: .delete)
    }
}

// MARK: Dratini: a client with a base URL, requests that name their path and method, Encodable parameters.

struct SignInParameters: Encodable {
    let userName: String
    let password: String
}

struct SignInRequest: TypedRequest {
    typealias Success = Echo

    let parameters: SignInParameters

    var request: Request {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Request(MutableRequest(method: .post, path: "/login") |> withFormBody(parameters, encoder: encoder))
    }
}

@Suite(.serialized)
struct OtherFrameworkPatternTests {
    @Test func aDotDotDotStyleRequestAcceptsWhatItDoesNotRejectAndEditsItsURL() async throws {
        let client = HTTPClient()
        let accepted = try await client.send(ProjectStatusRequest(code: 404))
        #expect(accepted == ["status": 404])
        do {
            _ = try await client.send(ProjectStatusRequest(code: 500))
            Issue.record("a rejected status must fail")
        } catch {
            #expect(error.failure(as: ServiceFailure.self) == ServiceFailure(status: 500))
            #expect(error.response?.request.fullURL.query == "edited=yes")
        }
    }

    @Test func aDotDotDotStyleFluentTaskRunsItsHandlersInOrder() async throws {
        let client = HTTPClient()
        let request = Request(URL: EchoServer.endpointBaseURL.appendingPathComponent("status/502"), method: .get)
        // Chained on the task's own queue, as DotDotDot's users chain on the main queue: the request starts only
        // once that code returns to the queue, so `.before` is in place (chained from another thread, it raced).
        let queue = DispatchQueue(label: "dotdotdot")
        let events = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            queue.async {
                let log = EventLog()
                client.task(request, as: [String: Int].self, queue: queue)
                    .before { log.add("before") }
                    .onCompletion { _ in log.add("completion") }
                    .onError { error in log.add("error \(error.statusCode ?? 0)") }
                    .onCancel { log.add("cancel") }
                    .finally {
                        log.add("finally")
                        continuation.resume(returning: log.events)
                    }
            }
        }
        #expect(events == ["before", "error 502", "finally"])
    }

    @Test func aRequestsStyleTypedRequestCompletesOnItsQueueAndDecodesItsFailure() async throws {
        let client = HTTPClient(urlSession: URLSession(configuration: .ephemeral))
        let queue = DispatchQueue(label: "requests")
        let result = await withCheckedContinuation { continuation in
            client.send(RecipeRequest(recipeID: "1"), queue: queue) { result in
                continuation.resume(returning: result)
            }
        }
        switch result {
        case .success(let echo): #expect(echo.path == "/echo/recipes/1")
        case .failure(let error): Issue.record("the recipe must arrive: \(error)")
        }
        let removed = await withCheckedContinuation { continuation in
            client.send(RemoveRecipeRequest(status: 409), queue: queue) { result in
                continuation.resume(returning: result)
            }
        }
        switch removed {
        case .success: Issue.record("a 409 must fail")
        case .failure(let error): #expect(error.failure(as: ServiceFailure.self) == ServiceFailure(status: 409))
        }
    }

    @Test func aDratiniStyleClientSendsRelativeRequestsUnderItsBaseURL() async throws {
        let queue = HTTPClient(baseURL: EchoServer.endpointBaseURL.appendingPathComponent("echo"))
        let echo = try await queue.send(SignInRequest(parameters: SignInParameters(userName: "ada", password: "pw")))
        #expect(echo.method == "POST")
        #expect(echo.path == "/echo/login")
        #expect(echo.body == "password=pw&user_name=ada")
        #expect(echo.headers["content-type"] == ["application/x-www-form-urlencoded"])
    }
}

/// Events recorded by handlers on another queue. `@unchecked Sendable`: `recorded` is touched only under `lock`.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    func add(_ event: String) {
        lock.lock()
        recorded.append(event)
        lock.unlock()
    }

    var events: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
#endif
