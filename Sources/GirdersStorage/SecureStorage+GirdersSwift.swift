public import Foundation
import GirdersSupport

/// GirdersSwift's non-throwing API. GirdersSwift swallowed errors into logs; these return whether they
/// succeeded (`nil` or `false` on failure) and report every failure except "not found" to
/// ``StorageDiagnostics/handler``.
extension SecureStorage {
    /// Stores a string; `false` when it could not be stored.
    @discardableResult
    public func save(string: String, forKey key: String) -> Bool {
        report { () throws(StorageError) in try writeString(string, forKey: key) } != nil
    }

    /// The string stored under `key`, or `nil`.
    public func string(forKey key: String) -> String? {
        report { () throws(StorageError) in try readString(forKey: key) }
    }

    /// Stores bytes; `false` when they could not be stored.
    @discardableResult
    public func save(value: Data, key: String) -> Bool {
        report { () throws(StorageError) in try writeData(value, forKey: key) } != nil
    }

    /// The bytes stored under `key`, or `nil`.
    public func data(forKey key: String) -> Data? {
        report { () throws(StorageError) in try readData(forKey: key) }
    }

    /// Removes the string under `key`; `false` when the store could not be changed.
    @discardableResult
    public func removeString(forKey key: String) -> Bool {
        report { () throws(StorageError) in try deleteData(forKey: key) } != nil
    }

    /// Removes the bytes under `key`; `false` when the store could not be changed.
    @discardableResult
    public func removeData(forKey key: String) -> Bool {
        report { () throws(StorageError) in try deleteData(forKey: key) } != nil
    }

    /// Removes everything; `false` when the store could not be changed.
    @discardableResult
    public func clearSecureStorage() -> Bool {
        report { () throws(StorageError) in try removeAll() } != nil
    }

    // MARK: GirdersSwift's biometric reading (its optional setters: Deprecations.swift)

    /// GirdersSwift's biometric reader: reads off the caller's thread and calls `result` once on `queue` with
    /// the string, or `nil` when it is missing, refused or unsupported (reported to ``StorageDiagnostics``).
    public func biometricProtectedString(
        forKey key: String, withPrompt prompt: String, queue: DispatchQueue = .main,
        result: @escaping @Sendable (String?) -> Void
    ) {
        biometricProtectedData(forKey: key, withPrompt: prompt, queue: queue) { data in
            result(data.flatMap { String(data: $0, encoding: .utf8) })
        }
    }

    /// GirdersSwift's biometric reader for bytes; see ``biometricProtectedString(forKey:withPrompt:queue:result:)``.
    public func biometricProtectedData(
        forKey key: String, withPrompt prompt: String, queue: DispatchQueue = .main,
        result: @escaping @Sendable (Data?) -> Void
    ) {
        DispatchQueue.global().async {
            let data = report { () throws(StorageError) in
                try readWithBiometricProtection(forKey: key, prompt: prompt)
            }
            queue.async { result(data) }
        }
    }

    func report<Value>(_ operation: () throws(StorageError) -> Value) -> Value? {
        do {
            return try operation()
        } catch .notFound {
            return nil
        } catch {
            StorageDiagnostics.report(error)
            return nil
        }
    }
}

/// Where the non-throwing GirdersSwift API reports failures, and where operations that succeeded report a
/// warning (a re-key whose final folder `fsync` failed after the new key took effect); standard error by default.
public enum StorageDiagnostics {
    private static let state = LockedState<(@Sendable (StorageError) -> Void)?>(nil)

    /// Called with every failure of the non-throwing API other than "not found", and with warnings; `nil` writes
    /// to standard error (control characters escaped, see ``StorageError/description``).
    public static var handler: (@Sendable (StorageError) -> Void)? {
        get { state.value }
        set { state.value = newValue }
    }

    static func report(_ error: StorageError) {
        if let handler = state.value {
            handler(error)
        } else {
            FileHandle.standardError.write(Data("GirdersStorage: \(error)\n".utf8))
        }
    }
}
