public import Foundation

/// A store for secrets (tokens, passwords, keys): GirdersSwift's `SecureStorage` API plus throwing variants that
/// tell "not found" apart from "cannot read right now" and from "corrupted".
///
/// Conformers implement the five throwing requirements; everything else comes from extensions.
///
/// - Implementations: ``KeychainStorage`` (Apple platforms; `KeychainStorage.shared` is a file store on Linux),
///   ``FileSecureStorage`` (AES-256-GCM, every platform), ``InMemorySecureStorage`` (tests).
/// - Errors: the throwing forms throw ``StorageError`` (`notFound`, `unavailable`, `wrongKey`, `corrupted`, ...);
///   GirdersSwift's forms (`save(string:forKey:)`, `string(forKey:)`) return `false` or `nil` and report the error
///   to ``StorageDiagnostics``.
/// - Threading: every store is `Sendable`; the file store serialises writers across threads and processes.
/// - Keys: names are compared in Unicode NFC, as `String` equality is.
///
/// ```swift
/// let storage = try FileSecureStorage(folder: folder, key: .passphrase("correct horse battery staple"))
/// storage.save(string: token, forKey: "token")
/// let token = storage.string(forKey: "token")
/// try storage.set(Credentials(user: "ada", password: "pw"), forKey: "credentials")
/// ```
public protocol SecureStorage: Sendable {
    /// The bytes stored under `key`.
    /// - Throws: ``StorageError/notFound(key:)`` when nothing is stored; other ``StorageError``s when the store
    ///   cannot be read or the data is damaged.
    func readData(forKey key: String) throws(StorageError) -> Data

    /// Stores `data` under `key`, replacing any value; when it returns, the value is durable.
    func writeData(_ data: Data, forKey key: String) throws(StorageError)

    /// Removes the value under `key`; removing a missing key is not an error.
    func deleteData(forKey key: String) throws(StorageError)

    /// Every key with a value, sorted.
    func allKeys() throws(StorageError) -> [String]

    /// Removes every value.
    func removeAll() throws(StorageError)

    /// Stores `data` so that reading it needs Face ID or Touch ID (GirdersSwift's biometric variant). Only
    /// ``KeychainStorage`` supports it; every other store throws ``StorageError/unsupported(feature:)``.
    func saveWithBiometricProtection(_ data: Data, forKey key: String) throws(StorageError)

    /// Reads a value stored with ``saveWithBiometricProtection(_:forKey:)``, showing `prompt` to the user.
    func readWithBiometricProtection(forKey key: String, prompt: String) throws(StorageError) -> Data
}

extension SecureStorage {
    /// Throws ``StorageError/unsupported(feature:)``: only the Apple keychain protects items with biometrics.
    public func saveWithBiometricProtection(_ data: Data, forKey key: String) throws(StorageError) {
        throw .unsupported(feature: "biometric protection needs the Apple keychain")
    }

    /// Throws ``StorageError/unsupported(feature:)``: only the Apple keychain protects items with biometrics.
    public func readWithBiometricProtection(forKey key: String, prompt: String) throws(StorageError) -> Data {
        throw .unsupported(feature: "biometric protection needs the Apple keychain")
    }
}

extension SecureStorage {
    /// Whether a value is stored under `key`.
    public func contains(_ key: String) throws(StorageError) -> Bool {
        do {
            _ = try readData(forKey: key)
            return true
        } catch .notFound {
            return false
        }
    }

    /// The string stored under `key` (UTF-8).
    public func readString(forKey key: String) throws(StorageError) -> String {
        let data = try readData(forKey: key)
        guard let string = String(data: data, encoding: .utf8) else {
            throw .codingFailed(key: key, reason: "the stored bytes are not UTF-8 text")
        }
        return string
    }

    /// Stores a string (UTF-8).
    public func writeString(_ string: String, forKey key: String) throws(StorageError) {
        try writeData(Data(string.utf8), forKey: key)
    }

    /// The `Decodable` value stored under `key` as JSON.
    public func value<Value: Decodable>(_ type: Value.Type, forKey key: String) throws(StorageError) -> Value {
        let data = try readData(forKey: key)
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .codingFailed(key: key, reason: "\(error)")
        }
    }

    /// Stores an `Encodable` value as JSON.
    public func set<Value: Encodable>(_ value: Value, forKey key: String) throws(StorageError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw .codingFailed(key: key, reason: "\(error)")
        }
        try writeData(data, forKey: key)
    }
}
