/// The `kSec…` constants Girders puts in a `SecItem*` dictionary, spelled by their contents.
///
/// Each `kSec…` constant is a `CFString` whose contents name a column or option of the keychain's database (see
/// `SecItemConstants.c` in Apple's Security sources): Security compares dictionary keys and values by contents, so
/// `"genp"` is `kSecClassGenericPassword`, and the contents cannot change without every stored item becoming
/// unreadable. Spelled out here, the whole dictionary is built, and tested, on every platform; `SystemSecItems`
/// only calls `SecItem*` with it. `KeychainConstantTests` compares each one with Security's own constant wherever
/// Security exists (the macOS job of `.github/workflows/ci.yml`).
enum KeychainConstant {
    /// `kSecClass`.
    static let itemClass = "class"
    /// `kSecClassGenericPassword`.
    static let genericPassword = "genp"
    /// `kSecAttrService`.
    static let service = "svce"
    /// `kSecAttrAccount`.
    static let account = "acct"
    /// `kSecAttrAccessGroup`.
    static let accessGroup = "agrp"
    /// `kSecAttrAccessible`.
    static let accessible = "pdmn"
    /// `kSecAttrAccessControl`.
    static let accessControl = "accc"
    /// `kSecUseDataProtectionKeychain`.
    static let dataProtectionKeychain = "nleg"
    /// `kSecUseAuthenticationContext`.
    static let authenticationContext = "u_AuthCtx"
    /// `kSecReturnData`.
    static let returnData = "r_Data"
    /// `kSecReturnAttributes`.
    static let returnAttributes = "r_Attributes"
    /// `kSecMatchLimit`.
    static let matchLimit = "m_Limit"
    /// `kSecMatchLimitOne`.
    static let matchLimitOne = "m_LimitOne"
    /// `kSecMatchLimitAll`.
    static let matchLimitAll = "m_LimitAll"
    /// `kSecValueData`.
    static let valueData = "v_Data"
    /// `kSecAttrAccessibleWhenUnlocked`.
    static let accessibleWhenUnlocked = "ak"
    /// `kSecAttrAccessibleAfterFirstUnlock`.
    static let accessibleAfterFirstUnlock = "ck"
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.
    static let accessibleWhenUnlockedThisDeviceOnly = "aku"
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`.
    static let accessibleAfterFirstUnlockThisDeviceOnly = "cku"
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`.
    static let accessibleWhenPasscodeSetThisDeviceOnly = "akpu"
}
