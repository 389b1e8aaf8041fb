import Foundation
import GirdersSupport

/// The process-wide configuration GirdersSwift code reads as `Configuration.sharedInstance["key"]`.
extension Configuration {
    private static let shared = SharedConfiguration()

    /// The configuration loaded from the main bundle on first use; assign a new snapshot to reload or replace it.
    ///
    /// GirdersSwift returned an empty configuration in silence when the file was missing or malformed. Girders
    /// reports the problem on standard error once, returns an empty configuration whose ``loadError`` says
    /// what went wrong, and reading a required key throws. Use `try Configuration(bundle: .main)` to get the
    /// error thrown instead.
    public static var sharedInstance: Configuration {
        get { shared.current }
        set { shared.replace(with: newValue) }
    }
}

/// What ``Configuration/sharedInstance`` holds: loaded once on first use, replaceable at any time.
private final class SharedConfiguration: Sendable {
    private let configuration = LockedState<Configuration?>(nil)

    var current: Configuration {
        let (loaded, failure) = configuration.withLock { configuration -> (Configuration, ConfigurationError?) in
            if let configuration { return (configuration, nil) }
            let loaded: Configuration
            var failure: ConfigurationError?
            do throws(ConfigurationError) {
                loaded = try Configuration(bundle: .main)
            } catch {
                failure = error
                loaded = Configuration(
                    layers: [], reloadableFiles: [], secretKeys: [], redactsLikelySecrets: true, loadError: error)
            }
            configuration = loaded
            return (loaded, failure)
        }
        if let failure {
            FileHandle.standardError.write(Data("GirdersConfig: \(failure)\n".utf8))
        }
        return loaded
    }

    func replace(with newValue: Configuration) {
        configuration.withLock { $0 = newValue }
    }
}
