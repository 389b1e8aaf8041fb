#if canImport(Security) && canImport(LocalAuthentication)
public import Foundation
import LocalAuthentication
import Security

/// A ``SecureStorage`` in the Apple keychain (generic passwords of one service), with an accessibility
/// level, an optional access group, and biometric protection for single items.
public final class KeychainStorage: SecureStorage {
    /// GirdersSwift's shared store: the main bundle's service, accessible after the first unlock.
    public static let shared = KeychainStorage()

    /// When items can be read.
    public enum Accessibility: Sendable {
        /// While the device is unlocked.
        case whenUnlocked
        /// After the first unlock since boot (background refresh can read).
        case afterFirstUnlock
        /// While unlocked, never restored to another device.
        case whenUnlockedThisDeviceOnly
        /// After the first unlock, never restored to another device.
        case afterFirstUnlockThisDeviceOnly
        /// Only while a passcode is set, never restored to another device.
        case whenPasscodeSetThisDeviceOnly

        var value: CFString {
            switch self {
            case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
            case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
            case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            }
        }
    }

    /// The keychain service the items belong to.
    public let service: String
    /// The shared access group, if any.
    public let accessGroup: String?
    /// When items can be read.
    public let accessibility: Accessibility

    /// A keychain store; the service defaults to the main bundle's identifier.
    public init(
        service: String = Bundle.main.bundleIdentifier ?? "girders", accessGroup: String? = nil,
        accessibility: Accessibility = .afterFirstUnlock
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
    }

    private func query(_ key: String?) -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        // NFC, as in every store: canonically equal names are one item.
        if let key { query[kSecAttrAccount as String] = KeyName.canonical(key) }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private static func failure(_ operation: String, _ status: OSStatus) -> StorageError {
        if status == errSecInteractionNotAllowed { return .unavailable(reason: "the keychain is locked") }
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "status \(status)"
        return .unavailable(reason: "\(operation): \(message)")
    }

    /// The bytes under `key`.
    public func readData(forKey key: String) throws(StorageError) -> Data {
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        return try copy(query, key: key)
    }

    private func copy(_ query: [String: Any], key: String) throws(StorageError) -> Data {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { throw .notFound(key: key) }
        guard status == errSecSuccess else { throw Self.failure("SecItemCopyMatching", status) }
        guard let data = result as? Data else {
            throw .corrupted(path: "keychain \(service)/\(key)", reason: "not data")
        }
        return data
    }

    /// Stores `data` under `key`.
    public func writeData(_ data: Data, forKey key: String) throws(StorageError) {
        let status = SecItemUpdate(query(key) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if status == errSecSuccess { return }
        guard status == errSecItemNotFound else { throw Self.failure("SecItemUpdate", status) }
        var item = query(key)
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = accessibility.value
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess else { throw Self.failure("SecItemAdd", added) }
    }

    /// Removes `key`.
    public func deleteData(forKey key: String) throws(StorageError) {
        let status = SecItemDelete(query(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Self.failure("SecItemDelete", status)
        }
    }

    /// The accounts of this service, sorted.
    public func allKeys() throws(StorageError) -> [String] {
        var query = query(nil)
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw Self.failure("SecItemCopyMatching", status) }
        let items = result as? [[String: Any]] ?? []
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    /// Removes every item of this service.
    public func removeAll() throws(StorageError) {
        let status = SecItemDelete(query(nil) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Self.failure("SecItemDelete", status)
        }
    }

    /// Stores `data` readable only after Face ID or Touch ID (current enrolment), on this device.
    public func saveWithBiometricProtection(_ data: Data, forKey key: String) throws(StorageError) {
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &error)
        else {
            throw .unsupported(feature: "biometric access control: \(String(describing: error?.takeRetainedValue()))")
        }
        try deleteData(forKey: key)
        var item = query(key)
        item[kSecValueData as String] = data
        item[kSecAttrAccessControl as String] = access
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw Self.failure("SecItemAdd", status) }
    }

    /// Reads a biometric item, asking the user with `prompt`.
    public func readWithBiometricProtection(forKey key: String, prompt: String) throws(StorageError) -> Data {
        let context = LAContext()
        context.localizedReason = prompt
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query[kSecUseAuthenticationContext as String] = context
        return try copy(query, key: key)
    }
}
#endif
