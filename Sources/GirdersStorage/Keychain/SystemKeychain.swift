#if canImport(Security)
import Foundation
import Security
#if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
import LocalAuthentication
#endif

/// The Apple keychain behind ``KeychainAPI``: each ``KeychainQuery`` as a `SecItem*` dictionary, nothing more.
/// Every decision lives in ``KeychainItems``, which the Linux tests run against a fake.
struct SystemKeychain: KeychainAPI {
    func copyMatching(_ query: KeychainQuery) -> (status: Int32, answer: KeychainAnswer) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(dictionary(query) as CFDictionary, &result)
        switch query.returning {
        case .data: return (status, (result as? Data).map(KeychainAnswer.data) ?? .none)
        case .accounts:
            let items = result as? [[String: Any]] ?? []
            return (status, .accounts(items.compactMap { $0[kSecAttrAccount as String] as? String }))
        case .nothing: return (status, .none)
        }
    }

    func add(_ query: KeychainQuery, data: Data, protection: KeychainProtection) -> Int32 {
        var item = dictionary(query)
        item[kSecValueData as String] = data
        if protection.biometric {
            guard
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, nil)
            else { return errSecParam }
            item[kSecAttrAccessControl as String] = access
        } else {
            item[kSecAttrAccessible as String] = protection.accessibility.attribute
        }
        return SecItemAdd(item as CFDictionary, nil)
    }

    func update(_ query: KeychainQuery, data: Data) -> Int32 {
        SecItemUpdate(dictionary(query) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        SecItemDelete(dictionary(query) as CFDictionary)
    }

    func message(for status: Int32) -> String? {
        SecCopyErrorMessageString(status, nil) as String?
    }

    private func dictionary(_ query: KeychainQuery) -> [String: Any] {
        var result: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: query.service,
        ]
        if let account = query.account { result[kSecAttrAccount as String] = account }
        if let group = query.accessGroup { result[kSecAttrAccessGroup as String] = group }
        if query.usesDataProtectionKeychain { result[kSecUseDataProtectionKeychain as String] = true }
        switch query.returning {
        case .data:
            result[kSecReturnData as String] = true
            result[kSecMatchLimit as String] = kSecMatchLimitOne
        case .accounts:
            result[kSecReturnAttributes as String] = true
            result[kSecMatchLimit as String] = kSecMatchLimitAll
        case .nothing: break
        }
        #if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
        if let prompt = query.prompt {
            let context = LAContext()
            context.localizedReason = prompt
            result[kSecUseAuthenticationContext as String] = context
        }
        #endif
        return result
    }
}

extension KeychainStorage.Accessibility {
    /// The `kSecAttrAccessible` value.
    var attribute: CFString {
        switch self {
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}
#endif
