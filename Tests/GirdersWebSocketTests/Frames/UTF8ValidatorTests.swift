import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket

/// The incremental UTF-8 check of text frames: the same verdict as Swift's own decoder for every input, whether
/// the bytes come whole, contiguous (eight ASCII bytes at a time) or one by one, and wherever a character or a bad
/// byte falls against the eight-byte steps.
struct UTF8ValidatorTests {
    /// Swift's decoder repairs what is not UTF-8, so the bytes survive it only if they were valid.
    static func swiftSays(_ bytes: [UInt8]) -> Bool {
        Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
    }

    static func verdict(_ bytes: [UInt8], pieces: Int) -> Bool {
        var validator = UTF8Validator()
        var start = 0
        let size = max(1, bytes.count / pieces)
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            guard validator.accepts(Data(bytes[start..<end])) else { return false }
            start = end
        }
        return validator.isComplete
    }

    @Test func everyPlacementOfACharacterOrABadByteAfterASCIIGetsSwiftsVerdict() {
        let inserts: [[UInt8]] = [
            [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xC3],
        ]
        for insert in inserts {
            for prefix in 0..<20 {
                for suffix in [0, 1, 7, 8, 9, 17] {
                    let bytes =
                        [UInt8](repeating: 0x61, count: prefix) + insert + [UInt8](repeating: 0x62, count: suffix)
                    let expected = Self.swiftSays(bytes)
                    for pieces in [1, 2, 3, bytes.count] {
                        #expect(Self.verdict(bytes, pieces: pieces) == expected, "\(insert) at \(prefix), \(pieces)")
                    }
                    var sequential = UTF8Validator()
                    #expect((sequential.accepts(bytes.lazy.map { $0 }) && sequential.isComplete) == expected)
                }
            }
        }
    }
}
