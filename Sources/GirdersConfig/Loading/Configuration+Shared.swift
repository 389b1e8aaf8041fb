import Foundation

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

/// The lock box behind ``Configuration/sharedInstance``: loads once, replaceable at any time.
private final class SharedConfiguration: @unchecked Sendable {
    private let lock = NSLock()
    private var configuration: Configuration?

    var current: Configuration {
        lock.lock()
        if let configuration {
            lock.unlock()
            return configuration
        }
        let loaded: Configuration
        var failure: ConfigurationError?
        do {
            loaded = try Configuration(bundle: .main)
        } catch {
            failure = error
            loaded = Configuration(
                layers: [], reloadableFiles: [], secretKeys: [], redactsLikelySecrets: true, loadError: error)
        }
        configuration = loaded
        lock.unlock()
        if let failure {
            FileHandle.standardError.write(Data("GirdersConfig: \(failure)\n".utf8))
        }
        return loaded
    }

    func replace(with newValue: Configuration) {
        lock.lock()
        configuration = newValue
        lock.unlock()
    }
}
