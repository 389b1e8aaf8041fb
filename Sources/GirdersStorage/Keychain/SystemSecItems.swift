#if canImport(Security)
import Foundation
import Security
#if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
import LocalAuthentication
#endif

/// Security's `SecItem*` functions behind ``SecItemFunctions``, and nothing more: which entries a call carries,
/// their keys and values, and every decision after the call are made where the Linux tests run them
/// (``SecItemKeychain``, ``KeychainAttribute/entry``, ``KeychainItems``).
struct SystemSecItems: SecItemFunctions {
    func copyMatching(_ query: [String: Any]) -> (status: Int32, result: Any?) {
        var result: CFTypeRef?
        return (SecItemCopyMatching(query as CFDictionary, &result), result)
    }

    func add(_ attributes: [String: Any]) -> Int32 { SecItemAdd(attributes as CFDictionary, nil) }

    func update(_ query: [String: Any], changes: [String: Any]) -> Int32 {
        SecItemUpdate(query as CFDictionary, changes as CFDictionary)
    }

    func delete(_ query: [String: Any]) -> Int32 { SecItemDelete(query as CFDictionary) }

    func message(for status: Int32) -> String? { SecCopyErrorMessageString(status, nil) as String? }

    func biometryAccessControl(accessible: String) -> Any? {
        SecAccessControlCreateWithFlags(nil, accessible as CFString, .biometryCurrentSet, nil)
    }

    func authenticationContext(prompt: String) -> Any? {
        #if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
        let context = LAContext()
        context.localizedReason = prompt
        return context
        #else
        return nil
        #endif
    }
}
#endif
