#if os(Linux)  // zlib through CGirdersCompression; python3 makes the large streams
import Foundation
import GirdersTestProcesses
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket
import GirdersTestServers

/// permessage-deflate's decompression (RFC 7692), with its examples and a stream that inflates past the limits.
struct WebSocketInflaterTests {
    func inflater(_ limits: WebSocketLimits = .standard, takeover: Bool = true) throws -> WebSocketInflater {
        try WebSocketInflater.make(limits: limits, takesOverContext: takeover).get()
    }

    /// Raw DEFLATE of `count` zero bytes, sync-flushed, without the trailing 00 00 FF FF (as a server sends it).
    func compressedZeros(_ count: Int) async throws -> Data {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, zlib; c = zlib.compressobj(9, zlib.DEFLATED, -15); "
                + "sys.stdout.buffer.write((c.compress(bytes(\(count))) + c.flush(zlib.Z_SYNC_FLUSH))[:-4])",
        ]
        return try await process.runToEnd().output
    }

    @Test func theRFCsExampleOfOneMessageInflatesToHello_RFC7692_7_2_3_1() throws {
        #expect(try inflater().inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])) == Data("Hello".utf8))
    }

    @Test func aSecondMessageUsesTheFirstOnesContext_RFC7692_7_2_3_2() throws {
        let shared = try inflater()
        #expect(try shared.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])) == Data("Hello".utf8))
        #expect(try shared.inflate(Data([0xF2, 0x00, 0x11, 0x00, 0x00])) == Data("Hello".utf8))
        // Without context takeover the second message's back-reference has nothing to point to.
        let fresh = try inflater(takeover: false)
        _ = try fresh.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]))
        #expect(throws: WebSocketError.self) { try fresh.inflate(Data([0xF2, 0x00, 0x11, 0x00, 0x00])) }
    }

    @Test func aStoredBlockInflatesToItsBytes_RFC7692_7_2_3_3() throws {
        let stored = Data([0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00])
        #expect(try inflater().inflate(stored) == Data("Hello".utf8))
    }

    @Test func bytesThatAreNotDeflateAreAProtocolError() throws {
        let error = try #require(throws: WebSocketError.self) { try inflater().inflate(Data([0xFF, 0xFF, 0xFF])) }
        #expect(error.closeCode == .protocolError)
    }

    @Test func aSmallFrameThatInflatesWithoutBoundIsStoppedByTheRatio() async throws {
        let bomb = try await compressedZeros(50 << 20)  // about 50 KiB for 50 MiB
        #expect(bomb.count < 100_000)
        let byRatio = try #require(throws: WebSocketError.self) {
            try inflater(WebSocketLimits(messageBytes: 64 << 20)).inflate(bomb)
        }
        #expect(byRatio == .limitExceeded(limit: .decompressionRatio, maximum: 100))
        let bySize = try #require(throws: WebSocketError.self) {
            try inflater(WebSocketLimits(messageBytes: 1 << 20, decompressionRatio: 10_000)).inflate(bomb)
        }
        #expect(bySize == .limitExceeded(limit: .messageBytes, maximum: 1 << 20))
        #expect(bySize.closeCode == .messageTooBig)
    }
}
#endif
