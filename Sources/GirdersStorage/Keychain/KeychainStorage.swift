public import Foundation

/// A ``SecureStorage`` in the Apple keychain (generic passwords of one service), with an accessibility level, an
/// optional access group and biometric protection for single items; the same API on every platform.
///
/// - Apple platforms: items are generic passwords in the data protection keychain (`kSecUseDataProtectionKeychain`,
///   the keychain iOS has). On macOS a process without a keychain entitlement (an unsigned command-line tool,
///   `swift test`) gets `errSecMissingEntitlement` there; the store then uses the legacy file-based keychain for
///   the rest of its life and reports that once to ``StorageDiagnostics``. There, accessibility classes and access
///   groups are not enforced as on iOS, and biometric items are not available.
/// - Linux, and ``init(folder:keyFile:)`` everywhere: a ``FileSecureStorage`` (AES-256-GCM) in
///   `<data home>/[<access group>/]<service>/keychain`, its key file `keychain.key` beside it, created 0700 and
///   0600 on first use; the data home is `$XDG_DATA_HOME` when absolute, else `~/.local/share`. File permissions
///   protect it from other users, not from processes of the same user; the accessibility level has no meaning
///   there (items are readable whenever the user's files are), and biometric protection throws
///   ``StorageError/unsupported(feature:)``.
/// - Errors: ``StorageError/notFound(key:)``; ``StorageError/unavailable(reason:)`` for a locked device
///   (`errSecInteractionNotAllowed`) or a missing entitlement; ``StorageError/authenticationFailed(key:reason:)``
///   when the user cancels or fails a biometric prompt.
///
/// ```swift
/// let storage = KeychainStorage(service: "com.example.app", accessibility: .afterFirstUnlockThisDeviceOnly)
/// try storage.writeString(token, forKey: "token")
/// KeychainStorage.shared.save(string: token, forKey: "token")  // GirdersSwift's call
/// ```
public final class KeychainStorage: SecureStorage {
    /// GirdersSwift's shared store: the default service, accessible after the first unlock.
    public static let shared = KeychainStorage()

    /// When items can be read (Apple platforms; the file store has no such states).
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
    }

    /// The keychain service the items belong to (on the file store, the folder it is named after).
    public let service: String
    /// The shared access group, if any.
    public let accessGroup: String?
    /// When items can be read.
    public let accessibility: Accessibility
    /// The file store's folder, or `nil` when the items live in the Apple keychain.
    public var folder: URL? { fileStore?.folder }
    /// The file store's key file, or `nil` when the items live in the Apple keychain.
    public var keyFile: URL? { fileStore?.keyFile }

    private let keychain: KeychainItems?
    private let fileStore: KeychainFileStore?

    /// The main bundle's identifier, or else the executable's name.
    public static var defaultService: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// The store of `service`: the Apple keychain on Apple platforms, the file store in the user's data home on
    /// Linux (see the type's discussion).
    public convenience init(
        service: String = KeychainStorage.defaultService, accessGroup: String? = nil,
        accessibility: Accessibility = .afterFirstUnlock
    ) {
        #if canImport(Security)
        self.init(
            service: service, accessGroup: accessGroup, accessibility: accessibility,
            api: SecItemKeychain(functions: SystemSecItems()))
        #else
        self.init(
            service: service, accessGroup: accessGroup, accessibility: accessibility,
            environment: ProcessInfo.processInfo.environment)
        #endif
    }

    /// A file store in `folder` with its key in `keyFile`, on every platform: for command-line tools, tests and
    /// sandboxes that have no keychain. The service is the folder's name.
    public init(folder: URL, keyFile: URL) {
        self.service = folder.lastPathComponent
        self.accessGroup = nil
        self.accessibility = .afterFirstUnlock
        self.keychain = nil
        self.fileStore = KeychainFileStore(folder: folder, keyFile: keyFile)
    }

    /// The file store of `service` in the data home of `environment` (Linux's default, and the tests').
    init(service: String, accessGroup: String?, accessibility: Accessibility, environment: [String: String]) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.keychain = nil
        self.fileStore = KeychainFileStore(service: service, accessGroup: accessGroup, environment: environment)
    }

    /// The keychain logic over `api`: the system keychain on Apple platforms, a fake in the tests.
    init(
        service: String, accessGroup: String?, accessibility: Accessibility, api: any KeychainAPI,
        platform: KeychainItems.Platform = .current
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.keychain = KeychainItems(
            api: api, service: service, accessGroup: accessGroup, accessibility: accessibility, platform: platform)
        self.fileStore = nil
    }

    /// Whether the items go to the data protection keychain: `false` on the file store, and on macOS after the
    /// fallback to the legacy keychain described above.
    public var usesDataProtectionKeychain: Bool { keychain?.usesDataProtectionKeychain ?? false }

    /// The bytes under `key`.
    public func readData(forKey key: String) throws(StorageError) -> Data {
        if let keychain { return try keychain.read(key) }
        return try opened().readData(forKey: key)
    }

    /// Stores `data` under `key`, durably.
    public func writeData(_ data: Data, forKey key: String) throws(StorageError) {
        if let keychain { return try keychain.write(data, key) }
        try opened().writeData(data, forKey: key)
    }

    /// Removes the value under `key`; a missing key is not an error.
    public func deleteData(forKey key: String) throws(StorageError) {
        if let keychain { return try keychain.delete(key) }
        try opened().deleteData(forKey: key)
    }

    /// Whether a value is stored under `key`, without reading it: an item protected by biometrics shows no
    /// prompt.
    public func contains(_ key: String) throws(StorageError) -> Bool {
        if let keychain { return try keychain.contains(key) }
        return try opened().contains(key)
    }

    /// Every key with a value, sorted.
    public func allKeys() throws(StorageError) -> [String] {
        if let keychain { return try keychain.accounts() }
        return try opened().allKeys()
    }

    /// Removes every value of this service.
    public func removeAll() throws(StorageError) {
        if let keychain { return try keychain.removeAll() }
        try opened().removeAll()
    }

    /// Stores `data` readable only after Face ID or Touch ID (current enrolment), on this device. Throws
    /// ``StorageError/unsupported(feature:)`` on the file store, tvOS and watchOS.
    public func saveWithBiometricProtection(_ data: Data, forKey key: String) throws(StorageError) {
        guard let keychain else { throw .unsupported(feature: "biometric protection needs the Apple keychain") }
        try keychain.writeBiometric(data, key)
    }

    /// Reads a biometric item, asking the user with `prompt`. Throws ``StorageError/unsupported(feature:)`` on
    /// the file store, tvOS and watchOS.
    public func readWithBiometricProtection(forKey key: String, prompt: String) throws(StorageError) -> Data {
        guard let keychain else { throw .unsupported(feature: "biometric protection needs the Apple keychain") }
        return try keychain.readBiometric(key, prompt: prompt)
    }

    private func opened() throws(StorageError) -> FileSecureStorage {
        guard let fileStore else { throw .unavailable(reason: "no store") }
        return try fileStore.opened()
    }
}

extension KeychainItems.Platform {
    /// The platform this code compiles for.
    static var current: Self {
        #if os(macOS)
        Self(fallsBackToLegacyKeychain: true, supportsBiometry: true)
        #elseif os(tvOS) || os(watchOS)
        Self(fallsBackToLegacyKeychain: false, supportsBiometry: false)
        #else
        Self(fallsBackToLegacyKeychain: false, supportsBiometry: true)
        #endif
    }
}
