import Foundation
import GirdersConfig
import Testing

struct TypedReadTests {
    static let created = Date(timeIntervalSince1970: 1_700_000_000)
    let config = Configuration(layers: [
        ConfigurationLayer(
            name: "Configuration.plist",
            values: [
                "name": "girders", "count": 42, "ratio": 0.25, "whole": 2.0, "half": 1.5, "enabled": true,
                "homepage": "https://example.com/path", "notAURL": "just words", "created": .date(created),
                "blob": .data(Data([1, 2, 3])), "tags": ["a", "b"], "mixed": ["a", 1],
                "limits": ["low": 1, "high": 9], "huge": .double(1e300),
            ], file: URL(fileURLWithPath: "/app/Configuration.plist"))
    ])

    @Test func eachTypeReadsInItsOptionalForm() {
        #expect(config.string(forKey: "name") == "girders")
        #expect(config.int(forKey: "count") == 42)
        #expect(config.double(forKey: "ratio") == 0.25)
        #expect(config.bool(forKey: "enabled") == true)
        #expect(config.url(forKey: "homepage") == URL(string: "https://example.com/path"))
        #expect(config.date(forKey: "created") == Self.created)
        #expect(config.data(forKey: "blob") == Data([1, 2, 3]))
        #expect(config.stringArray(forKey: "tags") == ["a", "b"])
        #expect(config.value(forKey: "limits", as: [String: Int].self) == ["low": 1, "high": 9])
    }

    @Test func missingOrMistypedKeysGiveNilOrTheDefault() {
        #expect(config.string(forKey: "nope") == nil)
        #expect(config.int(forKey: "name") == nil)
        #expect(config.int(forKey: "nope", default: 7) == 7)
        #expect(config.string(forKey: "count", default: "x") == "x")
        #expect(config.url(forKey: "notAURL") == nil)
        #expect(config.stringArray(forKey: "mixed") == nil)
        #expect(config.bool(forKey: "enabled", default: false) == true)
    }

    @Test func numbersConvertOnlyWhenLossless() throws {
        #expect(config.double(forKey: "count") == 42)
        #expect(config.int(forKey: "whole") == 2)
        #expect(config.int(forKey: "half") == nil)
        #expect(
            throws: ConfigurationError.lossyConversion(
                key: "half", value: "1.5", expected: "Int", source: "/app/Configuration.plist")
        ) {
            try config.requiredInt(forKey: "half")
        }
        #expect(throws: ConfigurationError.self) { try config.requiredInt(forKey: "huge") }
        #expect(config.value(forKey: "count", as: Bool.self) == nil, "numbers are not Booleans")
    }

    @Test func aRequiredReadOfAMistypedKeyNamesKeyTypesAndFile() {
        #expect {
            try config.requiredInt(forKey: "name")
        } throws: { error in
            (error as? ConfigurationError)?.description
                == "Configuration key \"name\" in /app/Configuration.plist is String, expected Int"
        }
    }

    @Test func aRequiredReadOfAMissingKeyListsTheLayersSearched() {
        #expect(throws: ConfigurationError.missingKey(key: "api.key", layers: ["/app/Configuration.plist"])) {
            try config.requiredString(forKey: "api.key")
        }
    }

    @Test func requiredReadsReturnValuesForEveryType() throws {
        #expect(try config.requiredString(forKey: "name") == "girders")
        #expect(try config.requiredDouble(forKey: "ratio") == 0.25)
        #expect(try config.requiredBool(forKey: "enabled"))
        #expect(try config.requiredURL(forKey: "homepage").host == "example.com")
        #expect(try config.requiredDate(forKey: "created") == Self.created)
        #expect(try config.requiredData(forKey: "blob").count == 3)
        #expect(try config.requiredValue(forKey: "tags", as: [String].self) == ["a", "b"])
    }

    struct Server: Decodable, Equatable {
        let host: String
        let port: Int
        let started: Date
        let secure: Bool?
    }

    @Test func aSubtreeDecodesIntoADecodableType() throws {
        let config = configuration([
            "servers": [
                ["host": "a", "port": 1, "started": .date(Self.created)],
                [
                    "host": "b", "port": 2,
                    "started": .date(Self.created), "secure": true,
                ],
            ]
        ])
        let servers = try config.requiredDecode([Server].self, forKey: "servers")
        #expect(
            servers == [
                Server(host: "a", port: 1, started: Self.created, secure: nil),
                Server(host: "b", port: 2, started: Self.created, secure: true),
            ])
        #expect(try config.decode([Server].self, forKey: "absent") == nil)
        #expect(try config.decode([Server].self, forKey: "absent", default: []) == [])
    }

    @Test func aDecodingErrorNamesTheCodingPath() {
        let config = configuration(["servers": [["host": "a", "port": "eighty", "started": .date(Self.created)]]])
        #expect {
            try config.requiredDecode([Server].self, forKey: "servers")
        } throws: { error in
            guard case .decodingFailed(let key, _, let reason, _)? = error as? ConfigurationError else { return false }
            return key == "servers" && reason.contains("0.port")
        }
    }

    @Test func textFromEnvironmentVariablesParsesIntoEveryType() {
        let env = Configuration(layers: [
            .environmentVariables(
                prefix: "T_",
                from: [
                    "T_n": "12", "T_r": "0.5", "T_b": "false", "T_d": "2023-11-14T22:13:20Z", "T_data": "AQID",
                    "T_bad": "12.5",
                ])
        ])
        #expect(env.int(forKey: "n") == 12)
        #expect(env.double(forKey: "r") == 0.5)
        #expect(env.bool(forKey: "b") == false)
        #expect(env.date(forKey: "d") == Self.created)
        #expect(env.data(forKey: "data") == Data([1, 2, 3]))
        #expect(throws: ConfigurationError.self) { try env.requiredInt(forKey: "bad") }
        #expect(configuration(["n": "12"]).int(forKey: "n") == nil, "typed plist strings are not parsed")
    }

    @Test func otherModulesReadThroughTheProtocol() throws {
        func timeout(from settings: some ConfigurationReading) -> Double {
            settings.double(forKey: "ratio", default: 30)
        }
        let settings: any ConfigurationReading = config
        #expect(timeout(from: config) == 0.25)
        #expect(settings.int(forKey: "count") == 42)
    }
}
