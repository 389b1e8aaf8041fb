#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import Testing

/// The same failure is the same `ResponseError` case on every transport, so that `RetryPolicy` and callers decide
/// alike whichever transport runs. (Timeouts, deadlines and limits have their own suites, on both transports.)
struct FailureParityTests {
    let server: HostileServer

    init() throws {
        server = try HostileServer.get()
    }

    private func kinds(_ url: URL) async -> [TransportKind: ResponseErrorKind] {
        var result: [TransportKind: ResponseErrorKind] = [:]
        for kind in TransportKind.allCases {
            let error = await responseError {
                _ = try await kind.client().perform(Request(MutableRequest(url: url) |> withTimeout(10)))
            }
            result[kind] = error?.kind
        }
        return result
    }

    @Test func aRefusedConnectionIsCannotConnectEverywhere() async throws {
        let port = try LoopbackServer.refusedPort()
        let found = await kinds(try #require(URL(string: "http://127.0.0.1:\(port)/")))
        #expect(Set(found.values) == [.cannotConnect], "\(found)")
    }

    @Test func anUnknownHostIsCannotFindHostEverywhere() async throws {
        let found = await kinds(try #require(URL(string: "http://girders-no-such-host.invalid/")))
        #expect(Set(found.values) == [.cannotFindHost], "\(found)")
    }

    @Test(arguments: ["/reset", "/close", "/reset-mid-body"])
    func aConnectionLostBeforeTheResponseEndsIsInterruptedEverywhere(_ path: String) async {
        let found = await kinds(server.url(path))
        #expect(Set(found.values) == [.interrupted], "\(found)")
    }
}
#endif
