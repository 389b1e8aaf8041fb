import Foundation
import GirdersConfig
import Testing

/// GirdersSwift's own configuration fixtures load with their old meaning.
struct GirdersSwiftFixtureTests {
    @Test func theBaseFileAloneGivesTheBaseValues() throws {
        let folder = try PlistFolder()
        try folder.copyGirdersSwiftFixtures()
        let config = try Configuration(directory: folder.url, processEnvironment: [:])
        #expect(config["baseUrl"] as? String == "https://base.url")
        #expect(config["Name"] as? String == "User")
        #expect(config["Last"] as? String == "Item")
        #expect(config["secret"] as? String == "HYjH0JXqo5zvy/Kx+VyrcA==")
    }

    @Test func theLegacyEnvOverlayStillWorksAsTheEnvironmentEnv() throws {
        let folder = try PlistFolder()
        try folder.copyGirdersSwiftFixtures()
        let config = try Configuration(directory: folder.url, environment: "env", processEnvironment: [:])
        #expect(config["baseUrl"] as? String == "https://base.url.env")
        #expect(config["Name"] as? String == "User", "keys the overlay lacks come from the base")
        #expect(config.source(forKey: "baseUrl")?.file?.lastPathComponent == "Configuration-env.plist")
        #expect(config.source(forKey: "Name")?.file?.lastPathComponent == "Configuration.plist")
    }

    @Test func literalKeysWithDotsAreStillFound() throws {
        let folder = try PlistFolder()
        try folder.copyGirdersSwiftFixtures()
        let config = try Configuration(directory: folder.url, processEnvironment: [:])
        #expect(config["auth.username"] as? String == "Test")
        #expect(config.string(forKey: "auth.password") == "1234")
        #expect(try config.requiredString(forKey: "auth.username") == "Test")
    }

    @Test func passwordsAndSecretsAreRedactedInTheDescription() throws {
        let folder = try PlistFolder()
        try folder.copyGirdersSwiftFixtures()
        let text = "\(try Configuration(directory: folder.url, processEnvironment: [:]))"
        #expect(text.contains("auth.password = <redacted>"))
        #expect(text.contains("secret = <redacted>"))
        #expect(!text.contains("1234") && !text.contains("HYjH0JXqo5zvy"))
        #expect(text.contains("auth.username = \"Test\""))
    }
}
