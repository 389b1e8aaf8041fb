#if canImport(Security)
import Foundation
import Security
#if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
import LocalAuthentication
#endif

/// The Apple keychain behind ``KeychainAPI``: the `SecItem*` call with the dictionary the entries describe, and
/// nothing more. Which entries a call carries, their keys and values, and every decision after the call are made
/// where the Linux tests run them (``KeychainQuery/attributes``, ``KeychainAttribute/entry``, ``KeychainItems``).
struct SystemKeychain: KeychainAPI {
    func copyMatching(_ query: KeychainQuery) -> (status: Int32, answer: KeychainAnswer) {
        var result: CFTypeRef?
        let status = dictionary(query.attributes).map { SecItemCopyMatching($0 as CFDictionary, &result) }
        return (status ?? errSecParam, query.answer(result))
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

    /// The `SecItem*` dictionary, or `nil` when an access control cannot be created (the call then fails with
    /// `errSecParam` rather than store an unprotected item).
    private func dictionary(_ attributes: [KeychainAttribute]) -> [String: Any]? {
        var result: [String: Any] = [:]
        for (key, value) in attributes.map(\.entry) {
            switch value {
            case .text(let text): result[key] = text
            case .yes: result[key] = kCFBooleanTrue
            case .data(let data): result[key] = data
            case .biometryAccessControl(let accessible):
                let flags = SecAccessControlCreateFlags.biometryCurrentSet
                guard let access = SecAccessControlCreateWithFlags(nil, accessible as CFString, flags, nil) else {
                    return nil
                }
                result[key] = access
            case .authenticationContext(let prompt):
                #if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
                let context = LAContext()
                context.localizedReason = prompt
                result[key] = context
                #endif
            }
        }
        return result
    }
}
#endif
