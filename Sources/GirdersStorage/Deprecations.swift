public import Foundation

// Every deprecated declaration of GirdersStorage, in one place: GirdersSwift's optional and non-throwing setters;
// each message says what to write now.

extension SecureStorage {
    /// GirdersSwift's optional setter: a string is stored, `nil` removes the key.
    @available(*, deprecated, message: "pass a String to save(string:forKey:), or call removeString(forKey:)")
    @discardableResult
    public func save(string: String?, forKey key: String) -> Bool {
        guard let string else { return removeString(forKey: key) }
        return save(string: string, forKey: key)
    }

    /// GirdersSwift's optional setter for bytes. GirdersSwift ignored `nil` here (while the string form removed);
    /// here `nil` removes the key in both.
    @available(*, deprecated, message: "pass Data to save(value:key:), or call removeData(forKey:)")
    @discardableResult
    public func save(value: Data?, key: String) -> Bool {
        guard let value else { return removeData(forKey: key) }
        return save(value: value, key: key)
    }

    /// GirdersSwift's biometric setter: stores `string` so reading needs Face ID or Touch ID; `nil` removes the
    /// key. Only ``KeychainStorage`` on Apple platforms supports it; elsewhere it returns `false` and reports
    /// ``StorageError/unsupported(feature:)``.
    @available(
        *, deprecated, message: "use try saveWithBiometricProtection(_:forKey:), which says why it failed"
    )
    @discardableResult
    public func saveWithBiometricProtection(string: String?, forKey key: String) -> Bool {
        guard let string else { return removeString(forKey: key) }
        return report { () throws(StorageError) in try saveWithBiometricProtection(Data(string.utf8), forKey: key) }
            != nil
    }

    /// GirdersSwift's biometric setter for bytes; `nil` removes the key.
    @available(
        *, deprecated, message: "use try saveWithBiometricProtection(_:forKey:), which says why it failed"
    )
    @discardableResult
    public func saveWithBiometricProtection(data: Data?, forKey key: String) -> Bool {
        guard let data else { return removeData(forKey: key) }
        return report { () throws(StorageError) in try saveWithBiometricProtection(data, forKey: key) } != nil
    }
}
