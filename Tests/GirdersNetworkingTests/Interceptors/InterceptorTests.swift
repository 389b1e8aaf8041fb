#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersLog
import GirdersNetworking
import GirdersTestServers
import Testing

/// Retries, token refresh and adapters against the loopback server.
struct InterceptorTests {
    struct Attempt: Decodable { let attempt: Int }
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    /// Sends `count` GETs to `url` at once and returns their statuses (0 for a failure).
    func statusesOfConcurrentGETs(_ count: Int, to url: URL, through client: HTTPClient) async -> [Int] {
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let response: Response<Data>? = try? await client.executeRequest(
                        request: Request(URL: url, method: .get))
                    return response?.statusCode ?? 0
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
    }

    func client(_ interceptors: any RequestInterceptor...) -> HTTPClient {
        HTTPClient(transport: URLSessionTransport(configuration: .default), interceptors: interceptors)
    }

    @Test func transientFailuresAreRetriedUntilTheySucceed() async throws {
        let id = UUID().uuidString
        let retrying = client(RetryPolicy(maximumAttempts: 3, baseDelay: 0.01, maximumDelay: 0.05))
        let response: Response<Attempt> = try await retrying.executeRequest(
            request: Request(URL: server.url("/flaky?id=\(id)&fail=2&status=503"), method: .get))
        #expect(response.bodyObject?.attempt == 3)
        #expect(try await server.count("flaky-\(id)") == 3)
    }

    @Test func retriesStopAtTheMaximumWithTheLastFailure() async throws {
        let id = UUID().uuidString
        let retrying = client(RetryPolicy(maximumAttempts: 3, baseDelay: 0.01, maximumDelay: 0.05))
        let error = await responseError {
            let _: Response<Attempt> = try await retrying.executeRequest(
                request: Request(URL: server.url("/flaky?id=\(id)&fail=9&status=502"), method: .get))
        }
        #expect(error?.statusCode == 502)
        #expect(try await server.count("flaky-\(id)") == 3)
    }

    @Test func nonIdempotentRequestsAreRetriedOnlyWhenTheyOptIn() async throws {
        let retrying = client(RetryPolicy(maximumAttempts: 3, baseDelay: 0.01, maximumDelay: 0.05))
        let once = UUID().uuidString
        let error = await responseError {
            let _: Response<Attempt> = try await retrying.executeRequest(
                request: Request(
                    MutableRequest(method: .post, url: server.url("/flaky?id=\(once)&fail=1&status=503"))
                        |> withTextBody("x")))
        }
        #expect(error?.statusCode == 503)
        #expect(try await server.count("flaky-\(once)") == 1)
        let optedIn = UUID().uuidString
        let response: Response<Attempt> = try await retrying.executeRequest(
            request: Request(
                MutableRequest(method: .post, url: server.url("/flaky?id=\(optedIn)&fail=1&status=429"))
                    |> withTextBody("x") |> withRetriesAllowed()))
        #expect(response.bodyObject?.attempt == 2)
    }

    @Test func otherStatusesAreNotRetried() async throws {
        let id = UUID().uuidString
        let error = await responseError {
            let _: Response<Attempt> = try await client(RetryPolicy(baseDelay: 0.01)).executeRequest(
                request: Request(URL: server.url("/flaky?id=\(id)&fail=1&status=404"), method: .get))
        }
        #expect(error?.statusCode == 404)
        #expect(try await server.count("flaky-\(id)") == 1)
    }

    @Test func retryAfterIsHonouredInSecondsAndAsAnHTTPDateAndCapped() async throws {
        let policy = RetryPolicy(maximumAttempts: 5, baseDelay: 1, maximumDelay: 10)
        let request = Request(URL: server.url("/x"), method: .get)
        func failure(_ status: Int, _ headers: HTTPHeaders) -> ResponseError {
            .forStatus(HTTPResponse(statusCode: status, headers: headers, body: Data(), url: nil, request: request))
        }
        let context = InterceptorContext(attempt: 1)
        #expect(
            await policy.retry(request, after: failure(429, ["Retry-After": "2"]), context: context) == .retryAfter(2))
        #expect(
            await policy.retry(request, after: failure(503, ["Retry-After": "3600"]), context: context)
                == .retryAfter(10))
        let date = Date().addingTimeInterval(5).toRFC822String()
        guard
            case .retryAfter(let seconds) = await policy.retry(
                request, after: failure(503, ["Retry-After": date]), context: context)
        else {
            Issue.record("expected a delay")
            return
        }
        #expect(seconds > 3 && seconds <= 5)
        #expect(
            await policy.retry(request, after: failure(503, [:]), context: InterceptorContext(attempt: 5))
                == .doNotRetry)
        #expect(await policy.retry(request, after: .timedOut(url: nil), context: context) != .doNotRetry)
        #expect(await policy.retry(request, after: .invalidRequest(reason: "x"), context: context) == .doNotRetry)
    }

    @Test func backoffIsFullJitterBelowAnExponentialCeiling() async throws {
        let request = Request(URL: server.url("/x"), method: .get)
        let failure = ResponseError.forStatus(
            HTTPResponse(statusCode: 500, headers: [:], body: Data(), url: nil, request: request))
        var ceilings: [Double] = []
        for attempt in 1...5 {
            var highest = 0.0
            for _ in 0..<200 {
                if case .retryAfter(let delay) = await RetryPolicy(maximumAttempts: 9, baseDelay: 1, maximumDelay: 10)
                    .retry(request, after: failure, context: InterceptorContext(attempt: attempt))
                {
                    #expect(delay >= 0)
                    highest = max(highest, delay)
                }
            }
            ceilings.append(highest)
        }
        #expect(ceilings[0] <= 1 && ceilings[1] <= 2 && ceilings[2] <= 4 && ceilings[3] <= 8 && ceilings[4] <= 10)
        #expect(ceilings[3] > 4 && ceilings[4] > 8)
    }
}

/// A token authenticator whose refreshes are counted; each refresh first waits for `before`, then 50 ms.
struct CountingAuthenticator: Authenticator {
    let refreshes: LockedList<String>
    var before: @Sendable () async throws -> Void = {}
    let next: @Sendable (String) throws -> String

    func apply(_ token: String, to request: Request) -> Request {
        request.settingHeader("Authorization", "Bearer \(token)")
    }

    func refresh(_ token: String) async throws -> String {
        refreshes.append(token)
        try await before()
        try await Task.sleep(for: .milliseconds(50))
        return try next(token)
    }
}

struct RefreshFailure: Error, CustomStringConvertible {
    var description: String { "the refresh token expired" }
}

/// Refreshes the token at the loopback server's `/refresh`.
struct ServerAuthenticator: Authenticator {
    let refreshURL: URL

    func apply(_ token: String, to request: Request) -> Request {
        request.settingHeader("Authorization", "Bearer \(token)")
    }

    func refresh(_ token: String) async throws -> String {
        struct Token: Decodable { let token: String }
        let response: Response<Token> = try await makeClient().executeRequest(
            request: Request(URL: refreshURL, method: .post))
        return response.bodyObject?.token ?? ""
    }
}

extension InterceptorTests {
    @Test func fiftyRequestsWithAnExpiredTokenCauseExactlyOneRefreshAtTheServer() async throws {
        let realm = UUID().uuidString
        let authenticator = ServerAuthenticator(refreshURL: server.url("/refresh?realm=\(realm)"))
        let authenticated = client(AuthenticationInterceptor(authenticator, credential: "expired"))
        let url = server.url("/protected?realm=\(realm)&good=\(realm)-fresh")
        let statuses = await statusesOfConcurrentGETs(
            50, to: url, through: authenticated)
        #expect(statuses == Array(repeating: 200, count: 50))
        #expect(try await server.count("refresh-\(realm)") == 1)
    }

    @Test func aRetryAfterOfOneSecondIsWaitedFor() async throws {
        let id = UUID().uuidString
        let started = Date()
        let response: Response<Attempt> = try await client(RetryPolicy(maximumAttempts: 2, baseDelay: 0.01))
            .executeRequest(
                request: Request(URL: server.url("/flaky?id=\(id)&fail=1&status=429&after=1"), method: .get))
        #expect(response.bodyObject?.attempt == 2)
        #expect(Date().timeIntervalSince(started) >= 1)
    }

    @Test func manyRequestsRefusedAtOnceShareExactlyOneRefresh() async throws {
        let realm = UUID().uuidString
        let refreshes = LockedList<String>()
        let interceptor = AuthenticationInterceptor(
            CountingAuthenticator(refreshes: refreshes) { _ in "t2" }, credential: "t1")
        let authenticated = client(interceptor)
        let url = server.url("/protected?realm=\(realm)&good=t2")
        let statuses = await statusesOfConcurrentGETs(
            10, to: url, through: authenticated)
        #expect(statuses == Array(repeating: 200, count: 10))
        #expect(refreshes.values == ["t1"])
        #expect(interceptor.credential == "t2")
        let later: Response<Data> = try await authenticated.executeRequest(request: Request(URL: url, method: .get))
        #expect(later.statusCode == 200)
        #expect(refreshes.values.count == 1)
    }

    /// A client signing with `t1` whose refreshes (counted in `refreshes`) fail, each only once the server has
    /// refused `refused` requests of `realm`.
    func clientWhoseRefreshFails(
        afterRefusing refused: Int, in realm: String, counting refreshes: LockedList<String>
    )
        -> HTTPClient
    {
        let server = server
        let gate: @Sendable () async throws -> Void = {
            try await waitUntil(asking: { (try? await server.count("protected-\(realm)")) == refused })
        }
        return client(
            AuthenticationInterceptor(
                CountingAuthenticator(refreshes: refreshes, before: gate) { _ in throw RefreshFailure() },
                credential: "t1"))
    }

    @Test func aFailedRefreshFailsEveryWaitingRequestWithItsError() async throws {
        let realm = UUID().uuidString
        let refreshes = LockedList<String>()
        // The refresh fails only once the server has refused all five, so none can start after it failed.
        let authenticated = clientWhoseRefreshFails(afterRefusing: 5, in: realm, counting: refreshes)
        let url = server.url("/protected?realm=\(realm)&good=t2")
        let errors = await withTaskGroup(of: ResponseError?.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    await responseError {
                        let _: Response<Data> = try await authenticated.executeRequest(
                            request: Request(URL: url, method: .get))
                    }
                }
            }
            return await group.reduce(into: [ResponseError?]()) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0 == .refreshFailed(reason: "the refresh token expired") })
        #expect(refreshes.values.count == 1)
    }

    @Test func aCallRefusedOnlyAfterTheRefreshFailedWhileItWasSentFailsWithoutRefreshingAgain() async throws {
        let realm = UUID().uuidString
        let refreshes = LockedList<String>()
        // The first call's refusal starts the refresh; it fails once the second call has reached the server.
        let authenticated = clientWhoseRefreshFails(afterRefusing: 2, in: realm, counting: refreshes)
        let held = Task {
            await responseError {
                let _: Response<Data> = try await authenticated.executeRequest(
                    request: Request(URL: server.url("/protected?realm=\(realm)&good=t2&hold=\(realm)"), method: .get))
            }
        }
        try await waitUntil(asking: { (try? await server.count("protected-\(realm)")) == 1 })
        let first = await responseError {
            let _: Response<Data> = try await authenticated.executeRequest(
                request: Request(URL: server.url("/protected?realm=\(realm)&good=t2"), method: .get))
        }
        #expect(first == .refreshFailed(reason: "the refresh token expired"))
        // Only now is the held call refused: after the refresh it was sent during had failed.
        _ = try await makeClient().perform(Request(URL: server.url("/release?name=\(realm)"), method: .get))
        #expect(await held.value == .refreshFailed(reason: "the refresh token expired"))
        #expect(refreshes.values == ["t1"])
    }

    @Test func aCallStartedAfterARefreshFailedRefreshesAgain() async throws {
        let realm = UUID().uuidString
        let refreshes = LockedList<String>()
        let interceptor = AuthenticationInterceptor(
            CountingAuthenticator(refreshes: refreshes) { _ in
                if refreshes.values.count == 1 { throw RefreshFailure() }
                return "t2"
            }, credential: "t1")
        let authenticated = client(interceptor)
        let url = server.url("/protected?realm=\(realm)&good=t2")
        let first = await responseError {
            let _: Response<Data> = try await authenticated.executeRequest(request: Request(URL: url, method: .get))
        }
        #expect(first == .refreshFailed(reason: "the refresh token expired"))
        let second: Response<Data> = try await authenticated.executeRequest(request: Request(URL: url, method: .get))
        #expect(second.statusCode == 200)
        #expect(refreshes.values == ["t1", "t1"])
        #expect(interceptor.credential == "t2")
    }

    @Test func aServerRefusingEveryCredentialCannotCauseARefreshLoop() async throws {
        let realm = UUID().uuidString
        let refreshes = LockedList<String>()
        let authenticated = client(
            AuthenticationInterceptor(CountingAuthenticator(refreshes: refreshes) { $0 + "+" }, credential: "t1"))
        let error = await responseError {
            let _: Response<Data> = try await authenticated.executeRequest(
                request: Request(URL: server.url("/protected?realm=\(realm)&good=never"), method: .get))
        }
        #expect(error?.statusCode == 401)
        #expect(refreshes.values == ["t1"])
        #expect(try await server.count("protected-\(realm)") == 2)
    }

    @Test func aFailingAdapterStopsTheCallBeforeAnythingIsSent() async throws {
        struct NoToken: RequestInterceptor {
            func adapt(_ request: Request, context: InterceptorContext) async throws -> Request {
                throw RefreshFailure()
            }
        }
        let realm = UUID().uuidString
        let error = await responseError {
            let _: Response<Data> = try await makeClient().adding(NoToken()).executeRequest(
                request: Request(URL: server.url("/protected?realm=\(realm)&good=x"), method: .get))
        }
        #expect(error == .interceptorFailed(reason: "the refresh token expired"))
        #expect(try await server.count("protected-\(realm)") == 0)
    }
}

/// The README's interceptor example, compiled and run as printed there.
struct InterceptorReadmeExampleTests {
    struct LoginReply: Decodable, Sendable { let token: String }

    // --- README types begin ---
    struct TokenAuthenticator: Authenticator {
        let refreshURL: URL
        func apply(_ token: String, to request: Request) -> Request {
            request.settingHeader("Authorization", "Bearer \(token)")
        }
        func refresh(_ token: String) async throws -> String {  // GirdersSwift's "log in again on 401"
            let response: Response<LoginReply> = try await HTTPClient().executeRequest(
                request: Request(URL: refreshURL, method: .post))
            return response.bodyObject?.token ?? ""
        }
    }
    // --- README types end ---

    @Test func theReadmeInterceptorExampleRefreshesAndSucceeds() async throws {
        let server = try LoopbackServer.get()
        let realm = UUID().uuidString
        let refreshURL = server.url("/refresh?realm=\(realm)")
        let savedToken = "expired"
        // --- README example begins ---
        let client = HTTPClient(
            interceptors: [
                AuthenticationInterceptor(TokenAuthenticator(refreshURL: refreshURL), credential: savedToken),
                RetryPolicy(maximumAttempts: 3),
            ],
            monitors: [LoggingMonitor(logger: Log.logger)])
        // --- README example ends ---
        let response: Response<Data> = try await client.executeRequest(
            request: Request(URL: server.url("/protected?realm=\(realm)&good=\(realm)-fresh"), method: .get))
        #expect(response.statusCode == 200)
    }
}
#endif
