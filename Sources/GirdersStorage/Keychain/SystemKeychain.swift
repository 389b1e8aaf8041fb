#if canImport(Security)
import Foundation
import Security
#if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
import LocalAuthentication
#endif

/// The Apple keychain behind ``KeychainAPI``: each ``KeychainAttribute`` swapped for its `kSec…` entry, then the
/// `SecItem*` call, nothing more. Which entries a call carries, and every decision after it, is decided where the
/// Linux tests run it (``KeychainQuery/attributes``, ``KeychainItems``).
struct SystemKeychain: KeychainAPI {
    func copyMatching(_ query: KeychainQuery) -> (status: Int32, answer: KeychainAnswer) {
        var result: CFTypeRef?
        let status = dictionary(query.attributes).map { SecItemCopyMatching($0 as CFDictionary, &result) }
        let accounts = (result as? [[String: Any]])?.compactMap { $0[kSecAttrAccount as String] as? String }
        return (status ?? errSecParam, query.answer(data: result as? Data, accounts: accounts))
    }

    func add(_ query: KeychainQuery, data: Data, protection: KeychainProtection) -> Int32 {
        let item = dictionary(query.attributes + protection.attributes + [.value(data)])
        return item.map { SecItemAdd($0 as CFDictionary, nil) } ?? errSecParam
    }

    func update(_ query: KeychainQuery, data: Data) -> Int32 {
        guard let search = dictionary(query.attributes), let change = dictionary([.value(data)]) else {
            return errSecParam
        }
        return SecItemUpdate(search as CFDictionary, change as CFDictionary)
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        dictionary(query.attributes).map { SecItemDelete($0 as CFDictionary) } ?? errSecParam
    }

    func message(for status: Int32) -> String? { SecCopyErrorMessageString(status, nil) as String? }

    /// The `SecItem*` dictionary, or `nil` when an access control cannot be created.
    private func dictionary(_ attributes: [KeychainAttribute]) -> [String: Any]? {
        var result: [String: Any] = [:]
        for attribute in attributes {
            switch attribute {
            case .genericPassword: result[kSecClass as String] = kSecClassGenericPassword
            case .service(let service): result[kSecAttrService as String] = service
            case .account(let account): result[kSecAttrAccount as String] = account
            case .accessGroup(let group): result[kSecAttrAccessGroup as String] = group
            case .dataProtectionKeychain: result[kSecUseDataProtectionKeychain as String] = true
            case .returnData: result[kSecReturnData as String] = true
            case .returnAttributes: result[kSecReturnAttributes as String] = true
            case .matchLimitOne: result[kSecMatchLimit as String] = kSecMatchLimitOne
            case .matchLimitAll: result[kSecMatchLimit as String] = kSecMatchLimitAll
            case .value(let data): result[kSecValueData as String] = data
            case .accessible(let accessibility): result[kSecAttrAccessible as String] = accessibility.attribute
            case .biometryCurrentSet:
                let flags = SecAccessControlCreateFlags.biometryCurrentSet
                let when = kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
                guard let access = SecAccessControlCreateWithFlags(nil, when, flags, nil) else { return nil }
                result[kSecAttrAccessControl as String] = access
            case .authenticationPrompt(let prompt):
                #if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
                let context = LAContext()
                context.localizedReason = prompt
                result[kSecUseAuthenticationContext as String] = context
                #endif
            }
        }
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
