import Foundation
import GirdersConfig
import Testing

/// The GirdersConfig example from README.md, compiled and run as printed there.
struct ConfigReadmeExampleTests {
    struct Endpoint: Decodable, Equatable {
        let host: String
        let port: Int
    }

    @Test func theReadmeExampleRunsAndReadsWhatItPromises() throws {
        let folder = try PlistFolder()
        try folder.write(
            "Configuration.plist",
            [
                "baseURL": "https://api.example.com", "api": ["timeout": 30, "retries": 3],
                "auth.password": "1234", "endpoint": ["host": "example.com", "port": 443],
            ])
        try folder.write(
            "Configuration-staging.plist", ["baseURL": "https://staging.example.com", "api": ["timeout": 60]])
        let resources = folder.url

        // --- README example begins ---
        let config = try Configuration(
            directory: resources, environment: "staging",
            additionalLayers: [.environmentVariables(prefix: "MYAPP_")])

        let baseURL = try config.requiredURL(forKey: "baseURL")  // from Configuration-staging.plist
        let timeout = config.int(forKey: "api.timeout", default: 10)  // 60: the overlay wins at the leaf
        let retries = config.int(forKey: "api.retries")  // 3: merged in from the base file
        let endpoint = try config.requiredDecode(Endpoint.self, forKey: "endpoint")
        let legacy = config["auth.password"] as? String  // GirdersSwift-style untyped read
        print(config)  // every key with its source; auth.password prints as <redacted>
        // --- README example ends ---

        #expect(baseURL.host == "staging.example.com")
        #expect(timeout == 60 && retries == 3)
        #expect(endpoint == Endpoint(host: "example.com", port: 443))
        #expect(legacy == "1234")
        #expect(config.description.contains("auth.password = <redacted>"))
    }
}
