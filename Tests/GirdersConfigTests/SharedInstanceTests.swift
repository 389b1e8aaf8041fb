import Foundation
import GirdersConfig
import Testing

/// `Configuration.sharedInstance` is process-wide, so these tests run one at a time.
@Suite(.serialized)
struct SharedInstanceTests {
    @Test func aMissingMainBundleConfigurationIsReportedNotSilentlyEmpty() throws {
        // The test runner's main bundle has no Configuration.plist.
        try #require(Bundle.main.url(forResource: "Configuration", withExtension: "plist") == nil)
        let shared = Configuration.sharedInstance
        guard case .fileNotFound(let path)? = shared.loadError else {
            Issue.record("expected fileNotFound, got \(String(describing: shared.loadError))")
            return
        }
        #expect(path.hasSuffix("Configuration.plist"))
        #expect(shared["baseUrl"] == nil)
        #expect(throws: ConfigurationError.missingKey(key: "baseUrl", layers: [])) {
            try shared.requiredString(forKey: "baseUrl")
        }
    }

    @Test func theSharedInstanceCanBeReplacedAndReadTheGirdersSwiftWay() throws {
        let original = Configuration.sharedInstance
        defer { Configuration.sharedInstance = original }
        let folder = try PlistFolder()
        try folder.copyGirdersSwiftFixtures()
        Configuration.sharedInstance = try Configuration(directory: folder.url, processEnvironment: [:])
        let apiURL = Configuration.sharedInstance["baseUrl"] as? String
        #expect(apiURL == "https://base.url")
        #expect(Configuration.sharedInstance.loadError == nil)
    }
}
