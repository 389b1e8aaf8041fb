import Foundation
import GirdersConfig
import Testing

struct LoadingTests {
    static let stamp = Date(timeIntervalSince1970: 1_600_000_000)
    let root: [String: Any] = [
        "baseURL": "https://api.example.com", "timeout": 12, "ratio": 0.5, "flag": false, "when": stamp,
        "blob": Data([0xDE, 0xAD]), "list": [1, 2, 3], "nested": ["deeper": ["leaf": "x"]],
    ]

    @Test(arguments: [false, true])
    func xmlAndBinaryPropertyListsLoadEveryType(binary: Bool) throws {
        let folder = try PlistFolder()
        let file = try folder.write("Configuration.plist", root, binary: binary)
        let config = try Configuration(baseFile: file)
        #expect(config.string(forKey: "baseURL") == "https://api.example.com")
        #expect(config.int(forKey: "timeout") == 12)
        #expect(config.double(forKey: "ratio") == 0.5)
        #expect(config.bool(forKey: "flag") == false)
        #expect(config.date(forKey: "when") == Self.stamp)
        #expect(config.data(forKey: "blob") == Data([0xDE, 0xAD]))
        #expect(config.value(forKey: "list", as: [Int].self) == [1, 2, 3])
        #expect(config.string(forKey: "nested.deeper.leaf") == "x")
        #expect(config.source(forKey: "timeout")?.file == file)
    }

    @Test func overlayFilesAndDataOverlaysWinInOrder() throws {
        let folder = try PlistFolder()
        let base = try folder.write("base.plist", ["a": 1, "b": 1, "c": 1])
        let first = try folder.write("first.plist", ["a": 2, "b": 2])
        let second = try folder.write("second.plist", ["a": 3])
        let fromFiles = try Configuration(baseFile: base, overlayFiles: [first, second])
        #expect([fromFiles.int(forKey: "a"), fromFiles.int(forKey: "b"), fromFiles.int(forKey: "c")] == [3, 2, 1])
        let fromData = try Configuration(
            baseData: try Data(contentsOf: base),
            overlayData: [try Data(contentsOf: first), try Data(contentsOf: second)])
        #expect([fromData.int(forKey: "a"), fromData.int(forKey: "b"), fromData.int(forKey: "c")] == [3, 2, 1])
    }

    @Test func theEnvironmentIsChosenByArgumentThenVariableThenInfoPlist() {
        let variable = ["GIRDERS_ENV": "from-variable"]
        #expect(
            EnvironmentChoice.select(explicit: "arg", processEnvironment: variable, infoPlistEnvironment: "plist")
                == EnvironmentChoice(name: "arg", chosenBy: "the initialiser argument"))
        #expect(
            EnvironmentChoice.select(explicit: nil, processEnvironment: variable, infoPlistEnvironment: "plist")?.name
                == "from-variable")
        #expect(
            EnvironmentChoice.select(explicit: " ", processEnvironment: [:], infoPlistEnvironment: "plist")?.name
                == "plist")
        #expect(EnvironmentChoice.select(explicit: nil, processEnvironment: [:], infoPlistEnvironment: nil) == nil)
    }

    @Test func eachRouteLoadsItsOverlay() throws {
        let folder = try PlistFolder()
        try folder.write("Configuration.plist", ["env": "none"])
        for name in ["arg", "var", "plist"] {
            try folder.write("Configuration-\(name).plist", ["env": "\(name)"], binary: name == "var")
        }
        let byArgument = try Configuration(directory: folder.url, environment: "arg", processEnvironment: [:])
        let byVariable = try Configuration(directory: folder.url, processEnvironment: ["GIRDERS_ENV": "var"])
        let byInfoPlist = try Configuration(
            directory: folder.url, infoPlistEnvironment: "plist", processEnvironment: [:])
        let none = try Configuration(directory: folder.url, processEnvironment: [:])
        #expect(byArgument.string(forKey: "env") == "arg")
        #expect(byVariable.string(forKey: "env") == "var")
        #expect(byInfoPlist.string(forKey: "env") == "plist")
        #expect(none.string(forKey: "env") == "none")
    }

    @Test func aBundlesInfoPlistChoosesTheEnvironment() throws {
        let folder = try PlistFolder()
        try folder.write("Info.plist", ["ConfigurationEnvironment": "staging", "CFBundleIdentifier": "test.bundle"])
        try folder.write("Configuration.plist", ["host": "prod"])
        try folder.write("Configuration-staging.plist", ["host": "staging"])
        let bundle = try #require(Bundle(url: folder.url))
        let config = try Configuration(bundle: bundle, processEnvironment: [:])
        #expect(config.string(forKey: "host") == "staging")
    }

    @Test func aMissingBaseFileIsAnErrorNamingThePath() throws {
        let folder = try PlistFolder()
        let expected = folder.url.appendingPathComponent("Configuration.plist").path
        #expect(throws: ConfigurationError.fileNotFound(path: expected)) {
            try Configuration(directory: folder.url, processEnvironment: [:])
        }
        #expect(
            ConfigurationError.fileNotFound(path: expected).description == "Configuration file not found: \(expected)")
    }

    @Test func anUnknownEnvironmentNamesTheMissingFileAndWhatChoseIt() throws {
        let folder = try PlistFolder()
        try folder.write("Configuration.plist", ["a": 1])
        let expected = folder.url.appendingPathComponent("Configuration-qa.plist").path
        #expect(
            throws: ConfigurationError.unknownEnvironment(
                name: "qa", expectedPath: expected, chosenBy: "the GIRDERS_ENV variable")
        ) {
            try Configuration(directory: folder.url, processEnvironment: ["GIRDERS_ENV": "qa"])
        }
    }

    @Test func aMalformedPropertyListNamesTheFileAndLine() throws {
        let folder = try PlistFolder()
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
              <key>a</key>
              <string>unterminated
            </dict>
            </plist>
            """
        let file = try folder.write("Configuration.plist", data: Data(text.utf8))
        #expect {
            try Configuration(baseFile: file)
        } throws: { error in
            guard case .malformedPropertyList(let path, _, let reason)? = error as? ConfigurationError else {
                return false
            }
            return path == file.path && !reason.isEmpty && "\(error)".hasPrefix("Malformed property list \(file.path)")
        }
    }

    @Test func aRootThatIsNotADictionaryIsAnError() throws {
        let folder = try PlistFolder()
        let data = try PropertyListSerialization.data(fromPropertyList: ["a", "b"], format: .xml, options: 0)
        let file = try folder.write("Configuration.plist", data: data)
        #expect(throws: ConfigurationError.rootIsNotADictionary(path: file.path, actualType: "Array")) {
            try Configuration(baseFile: file)
        }
    }

    @Test func reloadingReadsTheFilesAgainIntoANewSnapshot() throws {
        let folder = try PlistFolder()
        let file = try folder.write("Configuration.plist", ["version": 1])
        let first = try Configuration(
            baseFile: file, additionalLayers: [ConfigurationLayer(values: ["pinned": "yes"])])
        try folder.write("Configuration.plist", ["version": 2])
        let second = try first.reloaded()
        #expect(first.int(forKey: "version") == 1, "a snapshot never changes")
        #expect(second.int(forKey: "version") == 2)
        #expect(second.string(forKey: "pinned") == "yes")
        try FileManager.default.removeItem(at: file)
        #expect(throws: ConfigurationError.fileNotFound(path: file.path)) { try second.reloaded() }
    }

    @Test func explicitSecretKeysAreRedactedWithEverythingBelowThem() {
        let config = configuration(
            ["db": ["user": "admin", "pass": "x1"], "plain": "visible", "apiToken": "t"], secretKeys: ["db"])
        let text = config.description
        #expect(text.contains("db.user = <redacted>") && text.contains("db.pass = <redacted>"))
        #expect(text.contains("apiToken = <redacted>"), "likely secrets are redacted by name")
        #expect(text.contains("plain = \"visible\""))
        #expect(config.string(forKey: "db.pass") == "x1", "redaction only affects printing")
    }
}
