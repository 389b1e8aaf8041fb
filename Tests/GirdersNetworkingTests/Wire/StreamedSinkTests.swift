import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking

/// A streamed response's sink gives the same answer however the caller's wait and the transport's steps interleave.
struct StreamedSinkTests {
    func sink() throws -> ResponseSink {
        let url = try #require(URL(string: "http://127.0.0.1:9/file"))
        return ResponseSink(try WireRequest(lowering: Request(URL: url, method: .get)), destination: .stream)
    }

    @Test func aHeadThatArrivedIsTheCallersEvenWhenTheBodyFailedBeforeTheCallerWaited() async throws {
        let sink = try sink()
        try sink.receiveHead(statusCode: 200, headers: ["Content-Length": "10"])
        try sink.receive(Data("abcd".utf8))
        let cut = sink.fail(.interrupted(url: nil, receivedBytes: 4, expectedBytes: 10, reason: "cut"))
        // The caller only now waits for the head: it gets it, then the four bytes, then the failure.
        try await sink.awaitHead()
        #expect(sink.response().statusCode == 200)
        #expect(try await sink.nextChunk() == Data("abcd".utf8))
        await #expect(throws: cut) { _ = try await sink.nextChunk() }
    }

    @Test func aFailureBeforeTheHeadIsTheCallersError() async throws {
        let sink = try sink()
        let refused = sink.fail(.cannotConnect(url: nil, reason: "refused"))
        await #expect(throws: refused) { try await sink.awaitHead() }
    }
}
