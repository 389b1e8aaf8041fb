import Foundation

/// One entry of a `SecItem*` dictionary, without any Security type: ``KeychainQuery`` and ``KeychainProtection``
/// say which entries a call carries and ``entry`` gives each its key and value (all run by the Linux tests);
/// ``SecItemKeychain`` builds the dictionary; `SystemSecItems` only creates the two values that are objects (an
/// access control, an `LAContext`).
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

extension KeychainAttribute {
    /// A dictionary value.
    enum Value: Equatable, Sendable {
        /// A string, or a `kSec…` string constant (``KeychainConstant``).
        case text(String)
        /// `kCFBooleanTrue`.
        case yes
        case data(Data)
        /// A `SecAccessControl` for Face ID or Touch ID of the current enrolment (`.biometryCurrentSet`) with
        /// this accessibility.
        case biometryAccessControl(accessible: String)
        /// An `LAContext` with this `localizedReason`.
        case authenticationContext(prompt: String)
    }

    /// The `kSec…` key and value of this entry.
    var entry: (key: String, value: Value) {
        typealias K = KeychainConstant
        return switch self {
        case .genericPassword: (K.itemClass, .text(K.genericPassword))
        case .service(let service): (K.service, .text(service))
        case .account(let account): (K.account, .text(account))
        case .accessGroup(let group): (K.accessGroup, .text(group))
        case .dataProtectionKeychain: (K.dataProtectionKeychain, .yes)
        case .returnData: (K.returnData, .yes)
        case .returnAttributes: (K.returnAttributes, .yes)
        case .matchLimitOne: (K.matchLimit, .text(K.matchLimitOne))
        case .matchLimitAll: (K.matchLimit, .text(K.matchLimitAll))
        case .authenticationPrompt(let prompt): (K.authenticationContext, .authenticationContext(prompt: prompt))
        case .value(let data): (K.valueData, .data(data))
        case .accessible(let accessibility): (K.accessible, .text(accessibility.constant))
        case .biometryCurrentSet:
            (K.accessControl, .biometryAccessControl(accessible: K.accessibleWhenPasscodeSetThisDeviceOnly))
        }
    }
}

extension KeychainStorage.Accessibility {
    /// The `kSecAttrAccessible` value.
    var constant: String {
        switch self {
        case .whenUnlocked: KeychainConstant.accessibleWhenUnlocked
        case .afterFirstUnlock: KeychainConstant.accessibleAfterFirstUnlock
        case .whenUnlockedThisDeviceOnly: KeychainConstant.accessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlockThisDeviceOnly: KeychainConstant.accessibleAfterFirstUnlockThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: KeychainConstant.accessibleWhenPasscodeSetThisDeviceOnly
        }
    }
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

    /// What a `SecItemCopyMatching` result means for this query: the item's data (`CFData`), the accounts of the
    /// items it listed (a `CFArray` of attribute dictionaries), or nothing. A result of another shape is nothing.
    func answer(_ result: Any?) -> KeychainAnswer {
        switch returning {
        case .data: (result as? Data).map(KeychainAnswer.data) ?? .none
        case .accounts:
            .accounts((result as? [[String: Any]])?.compactMap { $0[KeychainConstant.account] as? String } ?? [])
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
