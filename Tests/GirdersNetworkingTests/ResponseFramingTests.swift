#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
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
