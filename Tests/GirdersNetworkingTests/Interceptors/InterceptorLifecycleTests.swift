#if os(macOS) || os(Linux)  // ScriptedTransport lives in a suite that starts processes
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// ``RequestInterceptor/attemptDidFinish(_:result:context:)``: once per attempt, under the call and attempt
/// ``RequestInterceptor/adapt(_:context:)`` saw, whatever the outcome.
struct InterceptorLifecycleTests {
    /// Records `adapt call/attempt` and `finish call/attempt status-or-error`; `failing` makes its adapt throw.
    struct Recorder: RequestInterceptor {
        let events: LockedList<String>
        var failing = false
        var retries = 0

        func adapt(_ request: Request, context: InterceptorContext) async throws -> Request {
            events.append("adapt \(context.call)/\(context.attempt)")
            if failing { throw ResponseError.invalidRequest(reason: "refused by the recorder") }
            return request
        }

        func retry(_ request: Request, after failure: ResponseError, context: InterceptorContext) async -> RetryDecision
        {
            context.attempt <= retries ? .retry : .doNotRetry
        }

        func attemptDidFinish(
            _ request: Request, result: Result<HTTPResponse, ResponseError>, context: InterceptorContext
        ) {
            let outcome =
                switch result {
                case .success(let response): "\(response.statusCode)"
                case .failure(let error): "\(error.kind.rawValue)"
                }
            events.append("finish \(context.call)/\(context.attempt) \(outcome)")
        }
    }

    let url = URL(string: "https://api.example.com/items") ?? URL(fileURLWithPath: "/")

    @Test func everyAttemptFinishesUnderTheCallAndAttemptItWasAdaptedFor() async throws {
        let events = LockedList<String>()
        let transport = ScriptedTransport { _ in (503, [:], "") }
        let client = HTTPClient(transport: transport, interceptors: [Recorder(events: events, retries: 1)])
        _ = try? await client.perform(Request(URL: url, method: .get))
        let recorded = events.values
        #expect(recorded.count == 4)
        let call = recorded.first?.split(separator: " ").last?.split(separator: "/").first.map(String.init) ?? "?"
        #expect(
            recorded == [
                "adapt \(call)/1", "finish \(call)/1 serviceUnavailable", "adapt \(call)/2",
                "finish \(call)/2 serviceUnavailable",
            ])
    }

    @Test func aSuccessfulAttemptFinishesWithItsResponseAndCallsDoNotShareANumber() async throws {
        let events = LockedList<String>()
        let client = HTTPClient(
            transport: ScriptedTransport { _ in (200, [:], "ok") }, interceptors: [Recorder(events: events)])
        _ = try await client.perform(Request(URL: url, method: .get))
        _ = try await client.perform(Request(URL: url, method: .get))
        let calls = events.values.map { $0.split(separator: " ")[1].split(separator: "/")[0] }
        #expect(events.values.filter { $0.hasPrefix("finish") }.allSatisfy { $0.hasSuffix(" 200") })
        #expect(Set(calls).count == 2, "\(events.values)")
    }

    @Test func anInterceptorWhoseAdaptFailedStillLetsTheOthersFinish() async throws {
        let events = LockedList<String>()
        let client = HTTPClient(
            transport: ScriptedTransport { _ in (200, [:], "ok") },
            interceptors: [Recorder(events: events), Recorder(events: events, failing: true)])
        let error = await responseError { _ = try await client.perform(Request(URL: url, method: .get)) }
        #expect(error == .invalidRequest(reason: "refused by the recorder"))
        let finishes = events.values.filter { $0.hasPrefix("finish") }
        #expect(finishes.count == 2 && finishes.allSatisfy { $0.hasSuffix("invalidRequest") }, "\(events.values)")
    }
}
#endif
