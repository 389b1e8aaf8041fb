public import GirdersConfig
import GirdersSupport

/// Process-wide defaults GirdersNetworking reads when a call site does not pass them explicitly.
///
/// GirdersSwift read `Configuration.sharedInstance` directly; Girders modules meet only through protocols, so the
/// app installs its configuration once at start-up:
///
/// ```swift
/// NetworkingDefaults.configuration = Configuration.sharedInstance
/// ```
///
/// It is read by ``withBasicAuth(_:)`` (`auth.username`, `auth.password`) and by the default
/// ``ServiceEndpoint/baseURL`` (`baseUrl`, then `baseURL`).
public enum NetworkingDefaults {
    private static let state = LockedState<(any ConfigurationReading)?>(nil)

    /// The configuration the defaults come from; `nil` (the initial value) means none is installed.
    public static var configuration: (any ConfigurationReading)? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// The keys the default ``ServiceEndpoint/baseURL`` looks up, in order: GirdersSwift's `baseUrl`, then `baseURL`.
    public static let baseURLKeys = ["baseUrl", "baseURL"]
}
