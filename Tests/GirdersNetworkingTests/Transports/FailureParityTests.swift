#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
@testable import GirdersNetworking
import GirdersTestServers
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

    /// FoundationNetworking reports some of libcurl's connection failures as `NSURLErrorUnknown` (-1), with libcurl's
    /// words or a POSIX error underneath; the fault-injecting proxy saw "Couldn't connect to server" so, which was an
    /// unknown transport error that `RetryPolicy` did not retry, where CurlTransport said cannotConnect and retried.
    @Test(arguments: [
        ("Couldn't connect to server", ResponseErrorKind.cannotConnect),
        ("Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server", .cannotConnect),
        ("Recv failure: Connection reset by peer", .interrupted), ("Send failure: Broken pipe", .interrupted),
        ("Failure when receiving data from the peer", .interrupted),
    ])
    func foundationNetworkingsUnknownConnectionFailuresAreWhatCurlTransportSays(
        _ description: String, _ kind: ResponseErrorKind
    ) async throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/"))
        let error = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorUnknown, userInfo: [NSLocalizedDescriptionKey: description])
        let failure = ResponseError(TransportFailure(urlSessionError: error), url: url)
        #expect(failure.kind == kind)
        let retried = await RetryPolicy(baseDelay: 0).retry(
            Request(URL: url, method: .get), after: failure, context: InterceptorContext(attempt: 1))
        #expect(retried != .doNotRetry, "retried like CurlTransport's \(kind)")
    }

    @Test(arguments: [(ECONNREFUSED, ResponseErrorKind.cannotConnect), (ECONNRESET, .interrupted)])
    func anUnderlyingPOSIXErrorDecidesAnUnknownFailure(_ code: Int32, _ kind: ResponseErrorKind) throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/"))
        let posix = NSError(domain: NSPOSIXErrorDomain, code: Int(code))
        let error = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorUnknown,
            userInfo: [NSLocalizedDescriptionKey: "something", NSUnderlyingErrorKey: posix])
        #expect(ResponseError(TransportFailure(urlSessionError: error), url: url).kind == kind)
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
