#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// A response whose framing is ambiguous is refused, and what a server puts in a header value cannot carry control
/// characters into the app, on every transport.
struct ResponseFramingTests {
    let server: HostileServer

    init() throws {
        server = try HostileServer.get()
    }

    @Test(arguments: TransportKind.allCases)
    func conflictingContentLengthsAreAnError(_ kind: TransportKind) async {
        for path in ["/length-twice?a=10&b=5", "/length-twice?a=5&b=10", "/length-list?v=5,%2010"] {
            let error = await responseError {
                _ = try await kind.client().perform(Request(URL: server.url(path), method: .get))
            }
            guard case .malformedResponse(_, let reason)? = error else {
                Issue.record("\(path): expected malformedResponse, got \(String(describing: error))")
                continue
            }
            #expect(reason.contains("conflicting Content-Length values (10, 5)"), "\(reason)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theSameContentLengthTwiceIsAccepted(_ kind: TransportKind) async throws {
        let response = try await kind.client().perform(Request(URL: server.url("/length-twice?a=5&b=5"), method: .get))
        #expect(response.body == Data("hello".utf8))
    }

    @Test(arguments: TransportKind.allCases)
    func withBothFramingsTheLengthIsDropped(_ kind: TransportKind) async throws {
        let response = try await kind.client().perform(Request(URL: server.url("/both-framings"), method: .get))
        #expect(response.body == Data("hello".utf8))
        #expect(response.headers["Content-Length"] == nil)
    }

    /// Sends `method` with a 10,000-byte body (none for GET) to a server that closes the pooled connection unanswered
    /// as the request arrives (an idle timeout firing just then), after one ordinary request on it.
    private func sendOnDroppedConnection(
        _ kind: TransportKind, _ method: HTTPMethod, body: Bool = true, timeout: Double = 60,
        _ transform: RequestTransform = { $0 }
    ) async throws -> HTTPResponse {
        let client = kind.client()
        let url = server.url("/keepalive/drop-next")
        _ = try await client.perform(Request(URL: url, method: .get))
        var request = MutableRequest(method: method, url: url) |> withTimeout(timeout) |> transform
        if body { request = request |> withBody(Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })) }
        return try await client.perform(Request(request))
    }

    @Test(arguments: TransportKind.allCases)
    func aGETIsSentAgainOnANewConnectionWhenAReusedOneClosesUnanswered(_ kind: TransportKind) async throws {
        let response = try await sendOnDroppedConnection(kind, .get, body: false)
        #expect(String(decoding: response.body, as: UTF8.self) == "0")
    }

    #if os(Linux)
    @Test func anIdempotentRequestsBodyIsSentAgainWholeOnANewConnectionOnCurlTransport() async throws {
        // libcurl asks for the body again; without a way to rewind it failed with "necessary data rewind wasn't
        // possible" (a transport error found by the fault-injection test on a busy machine).
        let response = try await sendOnDroppedConnection(.curl, .put)
        #expect(String(decoding: response.body, as: UTF8.self) == "10000")
    }

    @Test func aPOSTIsNotSentTwiceByItselfWhenAReusedConnectionClosesUnanswered() async throws {
        // The server may have acted on it before it closed (RFC 9110, 9.2.2): an error that says so, not a resend.
        let error = await responseError { _ = try await sendOnDroppedConnection(.curl, .post) }
        guard case .interrupted(_, _, _, let reason) = error else {
            Issue.record("expected interrupted, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("not idempotent"), "\(reason)")
        let allowed = try await sendOnDroppedConnection(.curl, .post) { $0 |> withRetriesAllowed(true) }
        #expect(String(decoding: allowed.body, as: UTF8.self) == "10000", "a POST that allows retries is sent again")
    }

    @Test func onLinuxURLSessionABodyOnAReusedConnectionThatClosesWaitsForItsTimeout() async throws {
        // FoundationNetworking neither sends it again nor fails: it waits (documented in HostileServers.md). Pinned,
        // so a fix there shows up here.
        let error = await responseError { _ = try await sendOnDroppedConnection(.urlSession, .put, timeout: 1.5) }
        #expect(error?.kind == .timedOut, "\(String(describing: error))")
    }
    #endif

    @Test(arguments: TransportKind.allCases)
    func aConnectionThatSentBothFramingsIsNotReused(_ kind: TransportKind) async throws {
        // libcurl 7.88 keeps such a connection for the next request, whose answer could then be smuggled in the
        // bytes the two framings disagree about. An ordinary response's connection is reused, so the check can fail.
        let client = kind.client()
        func connection() async throws -> String {
            String(
                decoding: try await client.perform(Request(URL: server.url("/keepalive/id"), method: .get)).body,
                as: UTF8.self)
        }
        let first = try await connection()
        #expect(try await connection() == first, "an ordinary response's connection is reused")
        let both = try await client.perform(Request(URL: server.url("/keepalive/both"), method: .get))
        #expect(both.body == Data("hello".utf8))
        #if os(Linux)
        if kind == .urlSession {
            // FoundationNetworking keeps its own connections and reuses this one (documented in
            // HostileServers.md); pinned, so a change there shows up here.
            #expect(try await connection() == first)
            return
        }
        #endif
        #expect(try await connection() != first, "the connection that sent both framings was reused")
    }

    @Test(arguments: TransportKind.allCases)
    func controlCharactersInAHeaderValueBecomeSpaces(_ kind: TransportKind) async throws {
        let response = try await kind.client().perform(Request(URL: server.url("/control-value"), method: .get))
        let value = try #require(response.headers["X-Evil"])
        #expect(!value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }, "\(value.debugDescription)")
        #expect(value.hasPrefix("a [31mred"), "\(value.debugDescription)")
    }
}
#endif
