import Foundation
import GirdersConfig
import Testing

struct MergeTests {
    let base: [String: ConfigValue] = [
        "api": ["timeout": 30, "retries": 3, "tls": ["pinning": true, "hosts": ["a", "b"]]],
        "servers": ["one", "two"],
        "name": "base",
    ]
    let overlay: [String: ConfigValue] = [
        "api": ["timeout": 10, "tls": ["hosts": ["c"]]],
        "servers": ["three"],
    ]

    @Test func nestedDictionariesMergeKeyByKeyAtAnyDepth() {
        let config = configuration(overlay, base)
        #expect(config.int(forKey: "api.timeout") == 10)
        #expect(config.int(forKey: "api.retries") == 3)
        #expect(config.bool(forKey: "api.tls.pinning") == true)
        #expect(config.string(forKey: "name") == "base")
    }

    @Test func arraysAreReplacedWhole() {
        let config = configuration(overlay, base)
        #expect(config.stringArray(forKey: "servers") == ["three"])
        #expect(config.stringArray(forKey: "api.tls.hosts") == ["c"])
    }

    @Test func aMergedSubtreeReadsAsOneDictionary() {
        let config = configuration(overlay, base)
        #expect(
            config.dictionary(forKey: "api")
                == ["timeout": 10, "retries": 3, "tls": ["pinning": true, "hosts": ["c"]]])
    }

    @Test func withManyLayersTheFirstMatchWins() {
        let config = configuration(["a": 1], ["a": 2, "b": 2], ["a": 3, "b": 3, "c": 3])
        #expect([config.int(forKey: "a"), config.int(forKey: "b"), config.int(forKey: "c")] == [1, 2, 3])
    }

    @Test func aLeafReplacesADictionaryAndTheOtherWayRound() {
        let config = configuration(["x": "flat", "y": ["deep": 1]], ["x": ["deep": 1], "y": "flat"])
        #expect(config.string(forKey: "x") == "flat" && config.value(forKey: "x.deep", as: Int.self) == nil)
        #expect(config.int(forKey: "y.deep") == 1)
    }

    @Test func aLiteralDottedKeyWinsOverTheNestedPathInTheSameLayer() {
        let config = configuration(["auth.username": "literal", "auth": ["username": "nested", "password": "p"]])
        #expect(config.string(forKey: "auth.username") == "literal")
        #expect(config.string(forKey: "auth.password") == "p")
    }

    @Test func aHigherLayerWinsOverALiteralKeyBelowIt() {
        let config = configuration(["auth": ["username": "overlay"]], ["auth.username": "base literal"])
        #expect(config.string(forKey: "auth.username") == "overlay")
    }

    @Test func provenanceNamesTheLayerOfEachValue() {
        let config = configuration(overlay, base)
        #expect(config.source(forKey: "api.timeout")?.layerName == "layer 0")
        #expect(config.source(forKey: "api.retries")?.layerName == "layer 1")
        #expect(config.source(forKey: "api")?.layerName == "layer 0", "a merged dictionary names the top layer")
        #expect(config.source(forKey: "missing") == nil)
    }

    @Test func environmentVariablesWithAPrefixFormALayerThatParsesText() throws {
        let variables = ["MYAPP_api__timeout": "5", "MYAPP_debug": "yes", "OTHER_x": "1", "MYAPP_": "ignored"]
        let config = Configuration(layers: [
            .environmentVariables(prefix: "MYAPP_", from: variables), ConfigurationLayer(name: "base", values: base),
        ])
        #expect(config.int(forKey: "api.timeout") == 5)
        #expect(config.int(forKey: "api.retries") == 3)
        #expect(config.bool(forKey: "debug") == true)
        #expect(config.string(forKey: "x") == nil)
        #expect(config.source(forKey: "api.timeout")?.layerName == "environment variables MYAPP_*")
    }

    @Test func inMemoryOverridesGoFirst() throws {
        let folder = try PlistFolder()
        try folder.write("Configuration.plist", ["name": "from file", "kept": true])
        let config = try Configuration(
            directory: folder.url, processEnvironment: [:],
            additionalLayers: [ConfigurationLayer(values: ["name": "override"])])
        #expect(config.string(forKey: "name") == "override")
        #expect(config.bool(forKey: "kept") == true)
        #expect(config.layerNames.first == "overrides")
    }
}
