#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Dispatch
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// The patterns of DotDotDot, danielbyon/Requests and Dratini: rejection codes and a typed error body per
/// request, a completion form of `send`, and a base URL on the client, against the loopback server.
struct DeclaredRequestTests {
    struct Status: Decodable, Equatable, Sendable { let status: Int }

    /// The server's error body (`{"status": N}`), as a request's own error type.
    struct ServerStatus: Error, Decodable, Equatable, Sendable { let status: Int }

    /// An error type the server's bodies never decode to.
    struct Unreadable: Error, Decodable, Sendable { let message: String }

    /// `GET /status/<code>`, accepting what `rejectionCodes` does not reject.
    struct StatusRequest: TypedRequest {
        typealias Success = Status
        let url: URL
        let rejectionCodes: [Range<Int>]?
        var request: Request { Request(URL: url, method: .get) }
    }

    struct StatusWithFailure<Failure: Error & Decodable & Sendable>: TypedRequest {
        typealias Success = Status
        let url: URL
        var request: Request { Request(URL: url, method: .get) }
    }

    /// DotDotDot's `parseError`: the request builds its own error from the rejected response.
    struct HeaderFailureRequest: NoContentRequest {
        typealias Failure = ServerStatus
        let url: URL
        var request: Request { Request(URL: url, method: .get) }
        func decodeFailure(from response: HTTPResponse, handlers: ResponseHandlerChain) -> ServerStatus? {
            response.headers["X-Status"].flatMap(Int.init).map { ServerStatus(status: -$0) }
        }
    }

    struct NoContentAt: NoContentRequest {
        let url: URL
        let rejectionCodes: [Range<Int>]?
        var request: Request { Request(URL: url, method: .get) }
    }

    struct EchoPath: TypedRequest {
        typealias Success = Echo
        let path: String
        var request: Request { Request(MutableRequest(method: .post, path: path) |> withJSONBody(["a": 1])) }
    }

    @Test func aRequestsRejectionCodesReplaceTheClientsAcceptableStatuses() async throws {
        let server = try LoopbackServer.get()
        let client = makeClient()
        let accepted = try await client.send(
            StatusRequest(url: server.url("/status/404"), rejectionCodes: [500..<600]))
        #expect(accepted == Status(status: 404))
        let rejected = await responseError {
            _ = try await client.send(StatusRequest(url: server.url("/status/201"), rejectionCodes: [200..<300]))
        }
        #expect(rejected?.statusCode == 201)
        #expect(rejected?.kind == .unacceptableStatusCode)
        let unchanged = await responseError {
            _ = try await client.send(StatusRequest(url: server.url("/status/404"), rejectionCodes: nil))
        }
        #expect(unchanged?.kind == .notFound)
        // DotDotDot's own example rejects 3xx: an unfollowed redirect is then an error; without 3xx it is success.
        let redirect = server.url("/redirect/302?to=/small")
        let noFollow = makeClient(redirects: .doNotFollow)
        try await noFollow.send(NoContentAt(url: redirect, rejectionCodes: [400..<600]))
        let refused = await responseError {
            try await noFollow.send(NoContentAt(url: redirect, rejectionCodes: [100..<200, 300..<600]))
        }
        #expect(refused?.statusCode == 302)
    }

    @Test func aRejectedStatusDecodesIntoTheRequestsOwnErrorTypeWithItsResponse() async throws {
        let server = try LoopbackServer.get()
        let client = makeClient()
        let error = await responseError {
            _ = try await client.send(StatusWithFailure<ServerStatus>(url: server.url("/status/422")))
        }
        guard case .rejected(let body) = error else {
            Issue.record("a decodable error body must be .rejected, got \(String(describing: error))")
            return
        }
        #expect(body.value as? ServerStatus == ServerStatus(status: 422))
        #expect(body.response.statusCode == 422)
        #expect(error?.failure(as: ServerStatus.self) == ServerStatus(status: 422))
        #expect(error?.statusCode == 422)
        #expect(error?.description.contains("HTTP 422") == true)

        // A body that does not decode, or no Failure type, keeps the status case: nothing is lost.
        let undecodable = await responseError {
            _ = try await client.send(StatusWithFailure<Unreadable>(url: server.url("/status/422")))
        }
        #expect(undecodable?.kind == .unprocessableEntity)
        let plain = await responseError {
            _ = try await client.send(StatusRequest(url: server.url("/status/422"), rejectionCodes: nil))
        }
        #expect(plain?.kind == .unprocessableEntity)
        #expect(plain?.failure(as: ServerStatus.self) == nil)
    }

    /// `Failure` left out is `NoFailureBody`, not `Never`: `Never: Decodable` needs macOS 14 / iOS 17, above the
    /// floors (the Apple SDK type-check failed on every such conformance). It never decodes, so nothing is read.
    @Test func aRequestThatLeavesOutFailureDeclaresNoFailureBodyWhichNeverDecodes() throws {
        #expect(StatusRequest.Failure.self == NoFailureBody.self)
        #expect(NoContentAt.Failure.self == NoFailureBody.self)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NoFailureBody.self, from: Data("{}".utf8)) }
        let url = try #require(URL(string: "http://127.0.0.1/status/422"))
        let request = StatusRequest(url: url, rejectionCodes: nil)
        let rejected = HTTPResponse(
            statusCode: 422, headers: ["Content-Type": "application/json"], body: Data(#"{"status":422}"#.utf8),
            url: url, request: request.request)
        #expect(request.decodeFailure(from: rejected, handlers: .standard) == nil)
        #expect(StatusWithFailure<ServerStatus>(url: url).decodeFailure(from: rejected, handlers: .standard) != nil)
    }

    @Test func aRequestMayBuildItsErrorFromTheResponseItself() async throws {
        let server = try LoopbackServer.get()
        let error = await responseError {
            try await makeClient().send(HeaderFailureRequest(url: server.url("/status/409")))
        }
        #expect(error?.failure(as: ServerStatus.self) == ServerStatus(status: -409))
    }

    @Test func theCompletionFormOfSendRunsOnceOnItsQueueWithTheTypedResult() async throws {
        let server = try LoopbackServer.get()
        let client = makeClient()
        let queue = DispatchQueue(label: "girders.test.send-completion")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let (value, onQueue) = await withCheckedContinuation { continuation in
            client.send(StatusRequest(url: server.url("/status/404"), rejectionCodes: [500..<600]), queue: queue) {
                continuation.resume(returning: ($0, DispatchQueue.getSpecific(key: key) == 7))
            }
        }
        #expect(try value.get() == Status(status: 404))
        #expect(onQueue)
        let failure = await withCheckedContinuation { continuation in
            client.send(NoContentAt(url: server.url("/status/503"), rejectionCodes: nil), queue: queue) {
                continuation.resume(returning: $0)
            }
        }
        guard case .failure(let error) = failure else {
            Issue.record("a 503 must fail the no-content request")
            return
        }
        #expect(error == .serviceUnavailable)
    }

    @Test func aClientBaseURLResolvesRelativeRequestsUnderItsPath() async throws {
        let server = try LoopbackServer.get()
        let client = HTTPClient(
            baseURL: server.url("/echo/api/"), transport: URLSessionTransport(configuration: .default))
        let echo = try await client.send(EchoPath(path: "/login"))
        #expect(echo.method == "POST")
        #expect(echo.path == "/echo/api/login")
        #expect(echo.body == #"{"a":1}"#)
        let nested = try await client.send(EchoPath(path: "users/7"))
        #expect(nested.path == "/echo/api/users/7")
        // An absolute URL is sent as it is.
        let absolute: Response<Echo> = try await client.executeRequest(
            request: Request(URL: server.url("/echo/elsewhere"), method: .get))
        #expect(absolute.bodyObject?.path == "/echo/elsewhere")
    }

    @Test func aRelativeRequestWithoutABaseURLOrWithADotSegmentFailsBeforeAnythingIsSent() async throws {
        let noBase = await responseError { _ = try await makeClient().send(EchoPath(path: "/login")) }
        #expect(noBase?.reason.contains("relative and the client has no baseURL") == true)
        let server = try LoopbackServer.get()
        let client = HTTPClient(
            baseURL: server.url("/echo/api"), transport: URLSessionTransport(configuration: .default))
        let climbing = await responseError { _ = try await client.send(EchoPath(path: "/users/../../admin")) }
        #expect(climbing?.reason.contains("dot segment") == true)
        #expect(climbing?.kind == .invalidRequest)
    }
}
#endif
