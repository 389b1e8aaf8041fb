import Foundation
import Testing

@testable import GirdersStorage

/// The few primitives the store takes from the system, checked where Girders adds something of its own: the
/// random bytes assembled from 64-bit words, the password wipe, and known answers for the library calls.
struct CryptoTests {
    @Test(arguments: [0, 1, 7, 8, 12, 16, 32, 33])
    func randomBytesReturnsExactlyTheCountAskedFor(count: Int) {
        #expect(Crypto.randomBytes(count).count == count)
    }

    @Test func randomBytesDifferFromCallToCallAndUseEveryByteValue() {
        let samples = (0..<64).map { _ in Crypto.randomBytes(Crypto.keyLength) }
        #expect(Set(samples).count == samples.count)
        // 64 × 32 bytes: each of the 256 values is missing with probability (255/256)^2048 ≈ 3e-4, so a byte
        // stuck at zero, or words copied with a wrong stride, shows as far fewer distinct values.
        #expect(Set(samples.joined()).count > 240)
    }

    @Test func wipingAPasswordZeroesEveryCharacter() {
        var password = "correct horse".utf8.map { CChar(bitPattern: $0) }
        Secret.wipe(&password)
        #expect(password == [CChar](repeating: 0, count: 13))
    }

    @Test func pbkdf2MatchesTheRFC7914TestVector() throws {
        // RFC 7914 §11: PBKDF2-HMAC-SHA256, P = "passwd", S = "salt", c = 1, first 32 bytes.
        let key = try Crypto.pbkdf2SHA256(password: "passwd", salt: Array("salt".utf8), iterations: 1)
        #expect(hex(key) == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
    }

    @Test func hmacMatchesTheRFC4231TestVector() throws {
        // RFC 4231 test case 2.
        let mac = try Crypto.hmacSHA256(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
        #expect(hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
