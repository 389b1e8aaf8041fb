#if canImport(Security)
import Foundation
import Security
import Testing

@testable import GirdersStorage

/// ``KeychainConstant`` spells Security's constants by their contents; here, where Security exists (the macOS job
/// of `.github/workflows/ci.yml`), each is compared with the constant itself.
@Suite struct KeychainConstantTests {
    @Test func everySpelledConstantIsSecuritysOwn() {
        let pairs: [(String, CFString)] = [
            (KeychainConstant.itemClass, kSecClass), (KeychainConstant.genericPassword, kSecClassGenericPassword),
            (KeychainConstant.service, kSecAttrService), (KeychainConstant.account, kSecAttrAccount),
            (KeychainConstant.accessGroup, kSecAttrAccessGroup), (KeychainConstant.accessible, kSecAttrAccessible),
            (KeychainConstant.accessControl, kSecAttrAccessControl),
            (KeychainConstant.dataProtectionKeychain, kSecUseDataProtectionKeychain),
            (KeychainConstant.authenticationContext, kSecUseAuthenticationContext),
            (KeychainConstant.returnData, kSecReturnData), (KeychainConstant.returnAttributes, kSecReturnAttributes),
            (KeychainConstant.matchLimit, kSecMatchLimit), (KeychainConstant.matchLimitOne, kSecMatchLimitOne),
            (KeychainConstant.matchLimitAll, kSecMatchLimitAll), (KeychainConstant.valueData, kSecValueData),
            (KeychainConstant.accessibleWhenUnlocked, kSecAttrAccessibleWhenUnlocked),
            (KeychainConstant.accessibleAfterFirstUnlock, kSecAttrAccessibleAfterFirstUnlock),
            (KeychainConstant.accessibleWhenUnlockedThisDeviceOnly, kSecAttrAccessibleWhenUnlockedThisDeviceOnly),
            (
                KeychainConstant.accessibleAfterFirstUnlockThisDeviceOnly,
                kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            ),
            (
                KeychainConstant.accessibleWhenPasscodeSetThisDeviceOnly,
                kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            ),
        ]
        for (spelled, constant) in pairs {
            #expect(spelled == constant as String)
        }
    }
}
#endif
