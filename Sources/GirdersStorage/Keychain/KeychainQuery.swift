import Foundation

/// One keychain request, without any Security type: what ``KeychainAPI`` implementations receive. The system
/// keychain turns it into a `SecItem*` dictionary; the tests' fake answers it as `SecItem*` would.
struct KeychainQuery: Sendable, Equatable {
    /// What a read returns.
    enum Returning: Sendable, Equatable {
        /// Nothing (update, delete, add).
        case nothing
        /// The item's data (`kSecReturnData`, one item).
        case data
        /// Every matching item's attributes (`kSecReturnAttributes`, `kSecMatchLimitAll`): never its data, so
        /// listing or checking for an item protected by biometrics shows no prompt.
        case accounts
    }

    /// `kSecAttrService`.
    var service: String
    /// `kSecAttrAccount`: the item's key (in NFC), or `nil` for every item of the service.
    var account: String?
    /// `kSecAttrAccessGroup`, or `nil` for the app's default group (and, in a search, every group it has).
    var accessGroup: String?
    /// `kSecUseDataProtectionKeychain`: on macOS, the keychain iOS has (accessibility, access groups and biometry
    /// as on iOS); without it, the legacy file-based keychain. Ignored by the other platforms, which have only the
    /// data protection keychain.
    var usesDataProtectionKeychain: Bool
    /// What a read returns.
    var returning: Returning = .nothing
    /// The prompt shown when reading an item protected by biometrics.
    var prompt: String?
}

/// What a new item gets besides its data.
struct KeychainProtection: Sendable, Equatable {
    /// When it can be read (ignored when `biometric`, which implies "this device, passcode set").
    var accessibility: KeychainStorage.Accessibility
    /// Readable only after Face ID or Touch ID of the current enrolment.
    var biometric: Bool
}

/// The answer to a read.
enum KeychainAnswer: Sendable, Equatable {
    /// No data asked for, or none found.
    case none
    /// One item's data.
    case data(Data)
    /// The accounts of the matching items.
    case accounts([String])
}

/// The four `SecItem*` calls, as the system keychain on Apple platforms and a fake in the tests provide them.
/// Each returns an `OSStatus` (see ``KeychainStatus``).
protocol KeychainAPI: Sendable {
    /// `SecItemCopyMatching`.
    func copyMatching(_ query: KeychainQuery) -> (status: Int32, answer: KeychainAnswer)
    /// `SecItemAdd`.
    func add(_ query: KeychainQuery, data: Data, protection: KeychainProtection) -> Int32
    /// `SecItemUpdate` of the data of the matching items.
    func update(_ query: KeychainQuery, data: Data) -> Int32
    /// `SecItemDelete`.
    func delete(_ query: KeychainQuery) -> Int32
    /// The system's text for a status (`SecCopyErrorMessageString`), if it has one.
    func message(for status: Int32) -> String?
}
