import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking

/// The answer to an opening handshake, read from the bytes of CurlTransport's own connection.
struct UpgradeResponseHeadTests {
    func parse(
        _ text: String, limits: ResponseLimits = .standard
    ) throws(UpgradeResponseHead.Problem)
        -> UpgradeResponseHead?
    {
        try UpgradeResponseHead.parse(Array(text.utf8), limits: limits)
    }

    @Test func aHeadEndsAtItsBlankLineAndWhatFollowsIsLeftForTheFrames() throws {
        let text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nX-Empty:\r\n\r\nab"  // "ab": frames
        let head = try #require(try parse(text))
        #expect(head.status == 101)
        #expect(head.fields.map(\.name) == ["Upgrade", "X-Empty"] && head.fields.map(\.value) == ["websocket", ""])
        #expect(head.length == text.utf8.count - 2)
    }

    @Test func anIncompleteHeadAsksForMoreAndInterimHeadsAreSkipped() throws {
        #expect(try parse("HTTP/1.1 101 Switching Protocols\r\nUpgrade: web") == nil)
        #expect(try parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 401 No\r\n\r\n")?.status == 401)
    }

    @Test(arguments: [
        "HTTP/1.1 099 Low\r\n\r\n", "HTTP/2 101 x\r\n\r\n", "HTTP/1.1 1O1 x\r\n\r\n",
        "HTTP/1.1 101 x\r\nX: a\r\n folded\r\n\r\n", "HTTP/1.1 101 x\r\nBad Name: a\r\n\r\n",
        "HTTP/1.1 101 x\r\nX: a\u{1}b\r\n\r\n",
    ])
    func whatBreaksRFC9112IsRefusedWithTheByteOffset(_ text: String) {
        #expect(throws: UpgradeResponseHead.Problem.self) { try parse(text) }
        if case .malformed(let reason)? = Result(catching: { () throws(UpgradeResponseHead.Problem) in try parse(text) }
        )
        .failureValue {
            #expect(reason.contains("at byte"), "\(reason)")
        }
    }

    @Test func aHeadPastTheLimitsIsRefusedEvenBeforeItEnds() {
        var limits = ResponseLimits.standard
        limits.headerBytes = 64
        limits.headerFields = 2
        let endless = "HTTP/1.1 101 x\r\n" + String(repeating: "X-Filler: 0123456789\r\n", count: 10)
        #expect(throws: UpgradeResponseHead.Problem.limit(.headerBytes, 64)) { try parse(endless, limits: limits) }
        #expect(throws: UpgradeResponseHead.Problem.limit(.headerFields, 2)) {
            try parse("HTTP/1.1 101 x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits: limits)
        }
    }
}

extension Result {
    fileprivate var failureValue: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
