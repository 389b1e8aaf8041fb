import Foundation
import GirdersConfig
import Testing

/// Truncated and corrupted property lists: every one is an error naming the input, none a crash.
struct MalformedInputTests {
    static var sample: [String: Any] {
        [
            "baseURL": "https://api.example.com/v1", "timeout": 30, "ratio": 0.75, "enabled": true,
            "created": Date(timeIntervalSince1970: 1_600_000_000), "blob": Data(repeating: 7, count: 40),
            "servers": ["alpha", "beta", "gamma"], "nested": ["level": ["deeper": ["leaf": "value", "n": 1]]],
            "auth.username": "user", "unicode": "Grüße, 世界 🌍",
        ]
    }

    static func encoded(_ format: PropertyListSerialization.PropertyListFormat) -> Data {
        (try? PropertyListSerialization.data(fromPropertyList: sample, format: format, options: 0)) ?? Data()
    }

    func expectError(for data: Data, name: String) {
        do {
            _ = try Configuration(baseData: data)
            Issue.record("\(name) (\(data.count) bytes) loaded without an error")
        } catch {
            let text = error.description
            #expect(text.contains("Configuration.plist (data)"), "\(name): \(text)")
        }
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func everyTruncationIsAnError(format: PropertyListSerialization.PropertyListFormat) {
        let full = Self.encoded(format)
        #expect(full.count > 300)
        #expect((try? Configuration(baseData: full)) != nil, "the intact file loads")
        for length in stride(from: 0, to: full.count - 1, by: max(1, full.count / 600)) {
            expectError(for: full.prefix(length), name: "\(format) truncated to \(length)")
        }
    }

    @Test func corruptedXMLTagsAreErrors() {
        let full = Self.encoded(.xml)
        var generator = SeededGenerator(seed: 42)
        // Every tag from <plist> on; "#" cannot start an XML name, so each mutation breaks the document.
        let start = full.firstRange(of: Data("<plist".utf8))?.lowerBound ?? 0
        let openings = full.indices.filter { $0 >= start && full[$0] == UInt8(ascii: "<") && $0 + 1 < full.count }
        for _ in 0..<300 {
            var corrupted = full
            let position = openings[Int.random(in: 0..<openings.count, using: &generator)] + 1
            corrupted[position] = UInt8(ascii: "#")
            expectError(for: corrupted, name: "XML with a corrupted tag at \(position)")
        }
    }

    @Test func aBinaryPlistWithACorruptTrailerIsAnError() {
        let full = Self.encoded(.binary)
        // The trailer's last 26 bytes: offset and reference sizes, object count, top object, offset table offset.
        for offset in 1...26 {
            var corrupted = full
            let index = full.count - offset
            corrupted[index] = corrupted[index] ^ 0xFF
            expectError(for: corrupted, name: "binary plist with trailer byte -\(offset) flipped")
        }
    }

    @Test func randomByteFlipsNeverCrash() {
        var generator = SeededGenerator(seed: 7)
        var errors = 0
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let full = Self.encoded(format)
            for _ in 0..<300 {
                var corrupted = full
                for _ in 0..<3 {
                    let index = Int.random(in: 0..<corrupted.count, using: &generator)
                    corrupted[index] = UInt8.random(in: 0...255, using: &generator)
                }
                do { _ = try Configuration(baseData: corrupted) } catch { errors += 1 }
            }
        }
        #expect(errors > 0)
    }
}

/// A small deterministic generator (SplitMix64), so failures can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
