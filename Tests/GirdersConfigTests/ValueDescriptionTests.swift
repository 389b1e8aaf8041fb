import Foundation
import GirdersConfig
import Testing

/// ``ConfigValue/description`` renders a value in one pass, whatever its depth, and stops at a bound.
struct ValueDescriptionTests {
    @Test func aValueRendersWithSortedKeysAndQuotedStrings() {
        let value = ConfigValue.dictionary([
            "b": .array([.integer(1), .string("x"), .bool(true)]), "a": .data(Data([1, 2])),
            "c": .dictionary([:]), "d": .array([]),
        ])
        #expect(value.description == #"{a: <2 bytes>, b: [1, "x", true], c: {}, d: []}"#)
    }

    @Test func aDeeplyNestedValueWithLongKeysRendersOnlyUpToTheBound() {
        // 500 levels of 16,000-character keys: 8 MB of keys, which the old rendering copied once per level.
        let key = String(repeating: "k", count: 16_000)
        var value = ConfigValue.string("leaf")
        for _ in 0..<500 { value = .dictionary([key: value]) }
        let text = value.description
        #expect(text.count == ConfigValue.maximumDescriptionLength + 1)
        #expect(text.hasPrefix("{" + key + ": {" + key.prefix(100)))
        #expect(text.hasSuffix("k…"))
    }

    @Test func aDeepListRendersOnAThreadWithASmallStack() throws {
        // 1,000 levels: the old rendering, a few frames per level, overflowed a 512 KiB stack at 500.
        var value = ConfigValue.integer(7)
        for _ in 0..<1_000 { value = .array([value]) }
        let done = DispatchSemaphore(value: 0)
        let results = ResultsBox()
        let thread = Thread { [value] in
            results.append(value.description)
            done.signal()
        }
        thread.stackSize = 512 << 10  // the default for secondary threads on Apple platforms
        thread.start()
        done.wait()
        // Releasing nested levels takes a frame per level too; 1,000 of them fit the small stack, should the last
        // reference go there.
        withExtendedLifetime(value) {}
        let text = try #require(results.values.first ?? nil)
        #expect(text == String(repeating: "[", count: 1_000) + "7" + String(repeating: "]", count: 1_000))
    }
}
