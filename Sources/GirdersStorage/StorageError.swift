/// Everything GirdersStorage reports, with the key or file concerned.
///
/// The cases tell apart what a caller handles differently: a key that is simply not there (``notFound(key:)``),
/// a store that cannot be read right now (``unavailable(reason:)``), the wrong key or passphrase
/// (``wrongKey(path:)``), and data that was damaged or tampered with (``corrupted(path:reason:)``).
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No value is stored under the key.
    case notFound(key: String)
    /// The store cannot be used right now (a file system error, a locked keychain); trying later may work.
    case unavailable(reason: String)
    /// The key or passphrase does not open the store; nothing was changed.
    case wrongKey(path: String)
    /// A file was truncated, tampered with or is not a store file; no data is returned from it.
    case corrupted(path: String, reason: String)
    /// A value could not be encoded or decoded as the requested type.
    case codingFailed(key: String, reason: String)
    /// The key material is unusable (wrong length, an unsafe key file).
    case invalidKey(reason: String)
    /// The operation does not exist on this platform (for example biometric protection on Linux).
    case unsupported(feature: String)

    /// One line naming the key or file and the problem.
    public var description: String {
        switch self {
        case .notFound(let key): "no value stored for '\(key)'"
        case .unavailable(let reason): "secure storage unavailable: \(reason)"
        case .wrongKey(let path): "\(path): the key or passphrase does not open this store"
        case .corrupted(let path, let reason): "\(path): corrupted: \(reason)"
        case .codingFailed(let key, let reason): "cannot encode or decode the value for '\(key)': \(reason)"
        case .invalidKey(let reason): "invalid key: \(reason)"
        case .unsupported(let feature): "unsupported on this platform: \(feature)"
        }
    }
}
