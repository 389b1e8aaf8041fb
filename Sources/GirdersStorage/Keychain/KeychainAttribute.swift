import Foundation

/// One entry of a `SecItem*` dictionary, without any Security type: ``KeychainQuery`` and ``KeychainProtection``
/// say which entries a call carries (run by the Linux tests), and `SystemKeychain` only swaps each for its
/// `kSec…` key and value.
enum KeychainAttribute: Equatable, Sendable {
    /// `kSecClass`: `kSecClassGenericPassword`.
    case genericPassword
    /// `kSecAttrService`.
    case service(String)
    /// `kSecAttrAccount`.
    case account(String)
    /// `kSecAttrAccessGroup`.
    case accessGroup(String)
    /// `kSecUseDataProtectionKeychain`: `true`.
    case dataProtectionKeychain
    /// `kSecReturnData`: `true`.
    case returnData
    /// `kSecReturnAttributes`: `true`.
    case returnAttributes
    /// `kSecMatchLimit`: `kSecMatchLimitOne`.
    case matchLimitOne
    /// `kSecMatchLimitAll`: `kSecMatchLimitAll`.
    case matchLimitAll
    /// `kSecUseAuthenticationContext`: an `LAContext` with this `localizedReason` (where LocalAuthentication
    /// has one; tvOS and watchOS have no biometric items to prompt for).
    case authenticationPrompt(String)
    /// `kSecValueData`.
    case value(Data)
    /// `kSecAttrAccessible`.
    case accessible(KeychainStorage.Accessibility)
    /// `kSecAttrAccessControl`: `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` with `.biometryCurrentSet`.
    /// When the system cannot create it, the call fails (`errSecParam`) rather than store an unprotected item.
    case biometryCurrentSet
}

extension KeychainQuery {
    /// The entries of this query's dictionary, in a fixed order.
    var attributes: [KeychainAttribute] {
        var result: [KeychainAttribute] = [.genericPassword, .service(service)]
        if let account { result.append(.account(account)) }
        if let accessGroup { result.append(.accessGroup(accessGroup)) }
        if usesDataProtectionKeychain { result.append(.dataProtectionKeychain) }
        switch returning {
        case .data: result += [.returnData, .matchLimitOne]
        case .accounts: result += [.returnAttributes, .matchLimitAll]
        case .nothing: break
        }
        if let prompt { result.append(.authenticationPrompt(prompt)) }
        return result
    }

    /// What a `SecItemCopyMatching` result means for this query: the item's data, the accounts of the items it
    /// listed, or nothing.
    func answer(data: Data?, accounts: [String]?) -> KeychainAnswer {
        switch returning {
        case .data: data.map(KeychainAnswer.data) ?? .none
        case .accounts: .accounts(accounts ?? [])
        case .nothing: .none
        }
    }
}

extension KeychainProtection {
    /// The entries a new item gets besides the query's: biometric items an access control (which implies "this
    /// device, passcode set"), others their accessibility.
    var attributes: [KeychainAttribute] {
        biometric ? [.biometryCurrentSet] : [.accessible(accessibility)]
    }
}
