import Foundation
import GirdersSupport
import Testing

@testable import GirdersConfig

/// The binary property-list reader against well-formed files from Foundation and against hostile ones built
/// byte by byte.
struct BinaryPropertyListReaderTests {
    /// A `bplist00` file from objects given as raw bytes (1-byte references and offsets), `top` the root.
    static func bplist(_ objects: [[UInt8]], top: Int = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        let offsetSize = offsets.allSatisfy { $0 < 256 } ? 1 : 2
        for offset in offsets {
            bytes += offsetSize == 1 ? [UInt8(offset)] : [UInt8(offset >> 8), UInt8(offset & 0xFF)]
        }
        func be64(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1] + be64(objects.count) + be64(top) + be64(table)
        return Data(bytes)
    }

    func failure(_ data: Data) -> BinaryPropertyListReader.Failure? {
        do {
            _ = try BinaryPropertyListReader.parse(data)
            return nil
        } catch {
            return error
        }
    }

    @Test func sharedReferencesCannotExpandBeyondTheBudget() throws {
        // A dictionary {k: array 1}; arrays 1...10 each hold their successor eight times; 11 is "x", 12 is "k":
        // 8^10 (about a billion) nodes from about 150 bytes.
        let arrays: [[UInt8]] = (1...10).map { level in [0xA8] + Array(repeating: UInt8(level + 1), count: 8) }
        let data = Self.bplist([[0xD1, 12, 1]] + arrays + [[0x51, UInt8(ascii: "x")], [0x51, UInt8(ascii: "k")]])
        #expect(data.count < 200)
        let error = try #require(failure(data))
        #expect(error.reason.contains("expands to more than"), "\(error.reason)")
        #expect(throws: ConfigurationError.self) { try Configuration(baseData: data) }
    }

    @Test func aReferenceCycleIsAnErrorNotAStackOverflow() throws {
        let error = try #require(failure(Self.bplist([[0xA1, 0]])))
        #expect(error.reason.contains("reference cycle") && error.offset == 8, "\(error)")
    }

    @Test(
        arguments: [
            ([[0xA1, 9]], "reference 9 is not one of 1"),
            ([[0x45, 1]], "run past the object area"), ([[0x5F, 0x10, 200]], "length does not fit in the file"),
            ([[0x14, 1, 2]], "invalid integer"),
            ([[0x80, 1]], "not a property-list value"),
            ([[0x00]], "is not a value"),
            ([[0x61, 0xD8, 0x00]], "unpaired surrogate"),
            ([[0xD1, 1, 1], [0x10, 1]], "key is not a string"),
            ([[0x33, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0]], "not a finite number"),
        ] as [([[UInt8]], String)])
    func malformedObjectsAreErrorsWithTheirOffset(objects: [[UInt8]], reason: String) throws {
        let error = try #require(failure(Self.bplist(objects)))
        #expect(error.reason.contains(reason), "\(error.reason)")
        #expect(error.offset >= 8)
    }

    @Test func errorsFromConfigurationNameTheByteOffset() throws {
        do {
            _ = try Configuration(baseData: Self.bplist([[0xD1, 0, 1]]))
            Issue.record("loaded")
        } catch {
            #expect(error.description.contains("byte offset 8: "), "\(error)")
        }
    }

    @Test func randomDocumentsReadTheSameFromBinaryAndXML() throws {
        var generator = SeededGenerator(seed: 511)
        let xmlTests = XMLPropertyListParserTests()
        for round in 0..<200 {
            let root = xmlTests.randomDictionary(depth: 0, using: &generator)
            let xml = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
            let binary = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
            #expect(try BinaryPropertyListReader.parse(binary) == XMLPropertyListParser.parse(xml), "round \(round)")
        }
    }

    @Test func a511LevelDocumentLoadsInBothEncodingsAndA513LevelOneIsAnError() throws {
        var root: Any = "leaf"
        for _ in 0..<510 { root = ["a": root] }
        let documents = try [PropertyListSerialization.PropertyListFormat.xml, .binary].map {
            try PropertyListSerialization.data(fromPropertyList: root, format: $0, options: 0)
        }
        let results = ResultsBox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for data in documents {
                let loaded = try? Configuration(baseData: data)
                results.append(loaded?.string(forKey: Array(repeating: "a", count: 510).joined(separator: ".")))
            }
            done.signal()
        }
        thread.stackSize = 512 << 10  // the default for secondary threads on Apple platforms
        thread.start()
        done.wait()
        #expect(results.values == ["leaf", "leaf"])
        let tooDeep = try PropertyListSerialization.data(
            fromPropertyList: ["a": root, "b": [[root]]], format: .binary, options: 0)
        #expect(failure(tooDeep)?.reason.contains("nesting deeper than 512 levels") == true)
    }
}

/// Results handed from a thread to the test.
final class ResultsBox: Sendable {
    private let storage = LockedState<[String?]>([])
    func append(_ value: String?) { storage.withLock { $0.append(value) } }
    var values: [String?] { storage.withLock { $0 } }
}

/// The key-path index holds each key once, so deep documents of long keys cost memory in proportion to the file.
struct PathIndexTests {
    @Test func longKeysFiveHundredLevelsDeepAreIndexedOnceEach() throws {
        let key = String(repeating: "k", count: 2_000)
        var root: [String: ConfigValue] = ["leaf": "value"]
        for level in 0..<500 { root = ["\(level)\(key)": .dictionary(root), "sibling\(level)": .integer(level)] }
        let configuration = Configuration(layers: [ConfigurationLayer(values: root)])
        // Every full path written out would be 500 * 499 / 2 * 2,000 bytes, about 250 MB; each key once is 1 MB.
        #expect(configuration.index.storedKeyBytes < 1_100_000)
        let deepest = (0..<500).reversed().map { "\($0)\(key)" }.joined(separator: ".") + ".leaf"
        #expect(configuration.string(forKey: deepest) == "value")
        #expect(configuration.int(forKey: "499\(key).sibling498") == 498)
        #expect(configuration.string(forKey: deepest + "x") == nil)
        #expect(configuration.string(forKey: "x" + deepest) == nil)
    }

    @Test func aLiteralDottedKeyAndANestedPathRankAsBefore() throws {
        let configuration = Configuration(layers: [
            ConfigurationLayer(name: "top", values: ["a": ["b": "nested-top"]]),
            ConfigurationLayer(name: "base", values: ["a.b": "literal-base", "a": ["b": "nested-base"]]),
        ])
        #expect(configuration.string(forKey: "a.b") == "nested-top")
        let base = Configuration(layers: [
            ConfigurationLayer(values: ["a.b": "literal", "a": ["b": "nested"]])
        ])
        #expect(base.string(forKey: "a.b") == "literal")
        #expect(base.keys == ["a.b"])
    }
}
