import Foundation
import GirdersConfig
import GirdersLog

/// What the demo reads through GirdersConfig: `Configuration.plist`, the overlay `Configuration-<env>.plist`, and
/// `GIRDERS_DEMO_<key>` environment variables above both (`GIRDERS_DEMO_baseURL=http://127.0.0.1:9000`).
public struct Settings: Sendable {
    var baseURL: URL
    var logLevel: LogLevel
    var retryAttempts: Int
    var retryBaseDelay: Double

    /// Reads the settings from any configuration (the demo knows the protocol, not the concrete type).
    init(_ configuration: any ConfigurationReading) throws {
        baseURL = try configuration.requiredURL(forKey: "baseURL")
        let level = configuration.int(forKey: "logLevel", default: 3)
        logLevel = LogLevel(rawValue: UInt8(clamping: level)) ?? .warning
        retryAttempts = configuration.int(forKey: "retries.attempts", default: 3)
        retryBaseDelay = configuration.double(forKey: "retries.baseDelay", default: 0.5)
    }

    /// The settings in `folder` for `environment` (else `GIRDERS_ENV`, else the base file alone).
    public static func load(
        folder: URL, environment: String?, variables: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Settings {
        try Settings(
            Configuration(
                directory: folder, environment: environment, processEnvironment: variables,
                additionalLayers: [.environmentVariables(prefix: "GIRDERS_DEMO_", from: variables)]))
    }
}
