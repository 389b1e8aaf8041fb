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
    /// The store exists and is opened with a key file that does not exist; nothing was created. A key file is
    /// created only together with a new store (or by ``FileSecureStorage/rekey(to:)``).
    case keyFileMissing(path: String)
    /// The store's folder or one of its files is not what a store needs: a symbolic link, not a folder or a
    /// regular file, owned by another user, or a non-empty folder that is not a store; nothing was changed.
    case refused(path: String, reason: String)
    /// The value is larger than a store item may be (`bytes` given, `limit` allowed); nothing was changed.
    case tooLarge(key: String, bytes: Int, limit: Int)
    /// The operation does not exist on this platform (for example biometric protection on Linux).
    case unsupported(feature: String)
    /// The user cancelled or failed the authentication a protected item needs (Face ID, Touch ID, passcode).
    case authenticationFailed(key: String, reason: String)

    /// One line naming the key or file and the problem. Control characters in keys, paths and reasons are
    /// escaped (`\u{A}`), so a hostile key name cannot forge a second line in a log.
    public var description: String {
        switch self {
        case .notFound(let key): "no value stored for '\(Self.escaped(key))'"
        case .unavailable(let reason): "secure storage unavailable: \(Self.escaped(reason))"
        case .wrongKey(let path): "\(Self.escaped(path)): the key or passphrase does not open this store"
        case .corrupted(let path, let reason): "\(Self.escaped(path)): corrupted: \(Self.escaped(reason))"
        case .codingFailed(let key, let reason):
            "cannot encode or decode the value for '\(Self.escaped(key))': \(Self.escaped(reason))"
        case .invalidKey(let reason): "invalid key: \(Self.escaped(reason))"
        case .keyFileMissing(let path):
            "\(Self.escaped(path)): the key file does not exist (the store does; no new key was made)"
        case .refused(let path, let reason): "\(Self.escaped(path)): refused: \(Self.escaped(reason))"
        case .tooLarge(let key, let bytes, let limit):
            "the value for '\(Self.escaped(key))' has \(bytes) bytes, more than \(limit)"
        case .unsupported(let feature): "unsupported on this platform: \(Self.escaped(feature))"
        case .authenticationFailed(let key, let reason):
            "authentication for '\(Self.escaped(key))' failed: \(Self.escaped(reason))"
        }
    }

    /// `text` with C0 and C1 controls, DEL and the Unicode line and paragraph separators written as `\u{..}`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isLineBreaking) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isLineBreaking(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isLineBreaking(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
