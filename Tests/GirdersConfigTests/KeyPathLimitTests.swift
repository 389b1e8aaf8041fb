import Foundation
import Testing

@testable import GirdersConfig

/// A file may store each key once and still spell out enormous key paths: 500 levels of 16,000-byte keys are an
/// 8 MB file whose paths add up to 2 GB. Listing and printing used to build every one of them (and every prefix of a
/// key, to look for secrets); each file is now measured as it is read and refused past a limit the app can set.
struct KeyPathLimitTests {
    /// 500 nested dictionaries of 16,000-byte keys, a leaf at the bottom: the issue's file (8 MB).
    static func deepDocument(levels: Int = 500, keyLength: Int = 16_000) -> Data {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
        for level in 0..<levels {
            let letter = Character(UnicodeScalar(UInt8(97 + level % 26)))
            xml += "<dict><key>" + String(repeating: letter, count: keyLength) + "</key>"
        }
        xml += "<string>leaf</string>" + String(repeating: "</dict>", count: levels) + "</plist>"
        return Data(xml.utf8)
    }

    @Test func aFileWhoseKeyPathsExpandPastTheLimitIsRefusedNamingTheFileAndTheLimit() throws {
        let folder = try PlistFolder()
        let file = try folder.write("Configuration.plist", data: Self.deepDocument())
        #expect(throws: ConfigurationError.keyPathsTooLong(path: file.path, limit: 16 << 20)) {
            try Configuration(baseFile: file)
        }
        let error = #expect(throws: ConfigurationError.self) { try Configuration(directory: folder.url) }
        #expect(error?.description.contains(file.path) == true)
        #expect(error?.description.contains("\(16 << 20) bytes (ConfigurationLimits.keyPathBytes)") == true)
        #expect(throws: ConfigurationError.keyPathsTooLong(path: "deep", limit: 16 << 20)) {
            try ConfigurationLayer.propertyList(data: Self.deepDocument(), name: "deep")
        }
    }

    @Test func theLimitIsTheAppsToSetAndHoldsOnReload() throws {
        let folder = try PlistFolder()
        let document = Self.deepDocument(levels: 20, keyLength: 100)  // paths: 100 + 201 + ... = about 21 KB
        let file = try folder.write("Configuration.plist", data: document)
        let roomy = ConfigurationLimits(keyPathBytes: 64 << 10)
        let configuration = try Configuration(baseFile: file, limits: roomy)
        #expect(configuration.keys.count == 1)
        #expect(configuration.keys.first?.utf8.count == 20 * 100 + 19)
        #expect(configuration.description.contains("= \"leaf\""))
        let tight = ConfigurationLimits(keyPathBytes: 10_000)
        #expect(throws: ConfigurationError.keyPathsTooLong(path: file.path, limit: 10_000)) {
            try Configuration(baseFile: file, limits: tight)
        }
        // A file that grew past the limit between loads is refused by the reload, with the limit it was loaded with.
        try folder.write("Configuration.plist", data: Self.deepDocument(levels: 40, keyLength: 100))
        #expect(throws: ConfigurationError.keyPathsTooLong(path: file.path, limit: 64 << 10)) {
            try configuration.reloaded()
        }
    }

    @Test func pathsInsideArraysCountFromTheArraysKey() throws {
        let values: ConfigValue = ["list": .array([["inner": "x"], ["inner": "y"]])]
        // "list" (4) + "list.inner" twice (10 each) = 24 bytes.
        #expect(!values.keyPathsExceed(24))
        #expect(values.keyPathsExceed(23))
    }

    @Test func secretsAboveADeepKeyAreFoundWithoutCopyingItsPrefixes() throws {
        let long = String(repeating: "k", count: 16_000)
        let key = (0..<100).map { "\($0)\(long)" }.joined(separator: ".")
        let configuration = Configuration(
            layers: [ConfigurationLayer(values: [:])], secretKeys: ["0\(long).1\(long)", "other"])
        #expect(configuration.isSecret(key))
        #expect(configuration.isSecret("0\(long).1\(long)"))
        #expect(!configuration.isSecret("0\(long).1\(long)x.2"))
        #expect(!configuration.isSecret("0\(long)"))
        #expect(configuration.isSecret("other.password"))
        #expect(!configuration.isSecret("otherwise"))
    }
}
