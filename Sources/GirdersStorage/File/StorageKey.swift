public import Foundation

/// How a ``FileSecureStorage`` gets its 256-bit key.
public enum StorageKey: Sendable {
    /// A raw 256-bit key (32 bytes) from the caller.
    case raw(Data)
    /// A passphrase stretched with PBKDF2-HMAC-SHA256 over a random 16-byte salt; at least 600,000 iterations.
    case passphrase(String, iterations: Int = 600_000)
    /// A file holding 32 random bytes, created with mode 0600 on first use. A key file readable by others is
    /// refused.
    case keyFile(URL)

    /// The minimum PBKDF2 iteration count accepted.
    public static let minimumIterations = 600_000

    /// The header's code for the derivation: 0 raw, 1 PBKDF2-HMAC-SHA256, 2 key file.
    var derivationCode: UInt8 {
        switch self {
        case .raw: 0
        case .passphrase: 1
        case .keyFile: 2
        }
    }

    var iterations: Int {
        if case .passphrase(_, let iterations) = self { return iterations }
        return 0
    }

    /// The 32-byte master key for a store with `salt`.
    func masterKey(salt: [UInt8]) throws(StorageError) -> [UInt8] {
        switch self {
        case .raw(let data):
            guard data.count == Crypto.keyLength else {
                throw .invalidKey(reason: "a raw key has 32 bytes, not \(data.count)")
            }
            return Array(data)
        case .passphrase(let passphrase, let iterations):
            guard iterations >= Self.minimumIterations else {
                throw .invalidKey(
                    reason: "PBKDF2 needs at least \(Self.minimumIterations) iterations, not \(iterations)")
            }
            guard !passphrase.isEmpty else { throw .invalidKey(reason: "the passphrase is empty") }
            do {
                return try Crypto.pbkdf2SHA256(password: passphrase, salt: salt, iterations: iterations)
            } catch {
                throw .unavailable(reason: error.reason)
            }
        case .keyFile(let url):
            return try KeyFile.load(url)
        }
    }
}

/// The key file: 32 random bytes, mode 0600.
enum KeyFile {
    static func load(_ url: URL) throws(StorageError) -> [UInt8] {
        if let bytes = try DurableFile.read(url.path) {
            guard bytes.count == Crypto.keyLength else {
                throw .invalidKey(reason: "\(url.path) holds \(bytes.count) bytes, a key file holds 32")
            }
            var status = stat()
            if stat(url.path, &status) == 0, status.st_mode & 0o077 != 0 {
                throw .invalidKey(
                    reason:
                        "\(url.path) is readable by others (mode \(String(status.st_mode & 0o777, radix: 8))); chmod 600 it"
                )
            }
            return bytes
        }
        let bytes: [UInt8]
        do {
            bytes = try Crypto.randomBytes(Crypto.keyLength)
        } catch {
            throw .unavailable(reason: error.reason)
        }
        try DurableFile.write(bytes, to: url.path, replacing: false)
        guard let stored = try DurableFile.read(url.path) else { throw .unavailable(reason: "\(url.path) vanished") }
        return stored
    }
}
