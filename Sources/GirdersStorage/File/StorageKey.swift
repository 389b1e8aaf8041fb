public import Foundation

/// How a ``FileSecureStorage`` gets its 256-bit key.
public enum StorageKey: Sendable {
    /// A raw 256-bit key (32 bytes) from the caller.
    case raw(Data)
    /// A passphrase stretched with PBKDF2-HMAC-SHA256 over the store's random 16-byte salt, with
    /// ``minimumIterations`` to ``maximumIterations`` iterations. The passphrase is normalised to Unicode NFC
    /// first, so "café" typed precomposed or decomposed opens the same store; an empty passphrase is refused.
    /// When an existing store is opened, the iteration count in its header is used.
    case passphrase(String, iterations: Int = 600_000)
    /// A file holding exactly 32 random bytes. It is created (mode 0600) only together with a new store or by a
    /// re-key; opening an existing store with a missing key file is ``StorageError/keyFileMissing(path:)``. A key
    /// file that is not a regular file, or that group or others may read, is refused.
    case keyFile(URL)

    /// The minimum PBKDF2 iteration count accepted.
    public static let minimumIterations = 600_000
    /// The maximum PBKDF2 iteration count accepted (about 3 s here); a header asking for more is corrupted.
    public static let maximumIterations = 10_000_000

    static var iterationRange: ClosedRange<Int> { minimumIterations...maximumIterations }
    static let passphraseCode: UInt8 = 1

    /// The header's code for the derivation: 0 raw, 1 PBKDF2-HMAC-SHA256, 2 key file.
    var derivationCode: UInt8 {
        switch self {
        case .raw: 0
        case .passphrase: Self.passphraseCode
        case .keyFile: 2
        }
    }

    /// The PBKDF2 iteration count for a new header (0 unless a passphrase).
    func newIterations() throws(StorageError) -> UInt32 {
        guard case .passphrase(_, let iterations) = self else { return 0 }
        guard Self.iterationRange.contains(iterations), let count = UInt32(exactly: iterations) else {
            throw .invalidKey(
                reason:
                    "PBKDF2 needs \(Self.minimumIterations) to \(Self.maximumIterations) iterations, not \(iterations)"
            )
        }
        return count
    }

    /// The 32-byte master key for a store with `salt` and `iterations` (a passphrase's own count is used only for
    /// a new header; an existing store's header decides). A missing key file is created only when
    /// `creatingKeyFile`. The caller wipes the result.
    func masterKey(salt: [UInt8], iterations: UInt32, creatingKeyFile: Bool) throws(StorageError) -> [UInt8] {
        switch self {
        case .raw(let data):
            guard data.count == Crypto.keyLength else {
                throw .invalidKey(reason: "a raw key has 32 bytes, not \(data.count)")
            }
            return Array(data)
        case .passphrase(let passphrase, _):
            guard !passphrase.isEmpty else { throw .invalidKey(reason: "the passphrase is empty") }
            guard Self.iterationRange.contains(Int(iterations)) else {
                throw .invalidKey(
                    reason:
                        "PBKDF2 needs \(Self.minimumIterations) to \(Self.maximumIterations) iterations, not \(iterations)"
                )
            }
            do {
                return try Crypto.pbkdf2SHA256(
                    password: KeyName.canonical(passphrase), salt: salt, iterations: Int(iterations))
            } catch {
                throw .unavailable(reason: error.reason)
            }
        case .keyFile(let url):
            return try KeyFile.load(url.path, creating: creatingKeyFile)
        }
    }
}
