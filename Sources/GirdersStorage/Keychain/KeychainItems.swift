import Foundation
import GirdersSupport

/// The keychain logic of ``KeychainStorage``, on every platform: the queries it builds, the save / update /
/// delete flow, the mapping of each `OSStatus` to a ``StorageError``, and the choice of keychain on macOS. It
/// calls the OS only through ``KeychainAPI``, so the Linux tests run all of it against a fake.
struct KeychainItems: Sendable {
    /// What the platform allows; set by ``KeychainStorage`` from the platform it compiles for.
    struct Platform: Sendable {
        /// macOS: when the data protection keychain answers `errSecMissingEntitlement` (an unsigned tool,
        /// `swift test`), use the legacy file-based keychain instead and say so once through
        /// ``StorageDiagnostics``. Elsewhere that status is an error.
        var fallsBackToLegacyKeychain: Bool
        /// iOS, macOS, visionOS: Face ID / Touch ID items. tvOS and watchOS have no biometry to ask.
        var supportsBiometry: Bool
    }

    let api: any KeychainAPI
    let service: String
    let accessGroup: String?
    let accessibility: KeychainStorage.Accessibility
    let platform: Platform
    /// `true` until the data protection keychain turned out to be out of reach (macOS only).
    private let dataProtection = LockedState(true)

    init(
        api: any KeychainAPI, service: String, accessGroup: String?, accessibility: KeychainStorage.Accessibility,
        platform: Platform
    ) {
        self.api = api
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.platform = platform
    }

    /// Whether items go to the data protection keychain (always, but on macOS after a fallback).
    var usesDataProtectionKeychain: Bool { dataProtection.value }

    /// The query for `key` (every item of the service when `nil`). Keys are compared in NFC, as in every store.
    func query(_ key: String?, returning: KeychainQuery.Returning = .nothing, prompt: String? = nil) -> KeychainQuery {
        KeychainQuery(
            service: service, account: key.map(KeyName.canonical), accessGroup: accessGroup,
            usesDataProtectionKeychain: dataProtection.value, returning: returning, prompt: prompt)
    }

    /// Runs `call` with a query for the current keychain; on macOS, one `errSecMissingEntitlement` from the data
    /// protection keychain moves this store to the legacy keychain for good and runs `call` again.
    private func run<Result>(_ call: () -> (status: Int32, answer: Result)) -> (status: Int32, answer: Result) {
        let first = call()
        guard first.status == KeychainStatus.missingEntitlement, platform.fallsBackToLegacyKeychain else {
            return first
        }
        let wasOn = dataProtection.withLock { uses in
            defer { uses = false }
            return uses
        }
        guard wasOn else { return first }
        StorageDiagnostics.report(
            .unavailable(
                reason: "the data protection keychain needs a signed app with a keychain entitlement; service "
                    + "\(service) uses the legacy macOS keychain instead (accessibility and access groups as macOS "
                    + "keeps them there)"))
        return call()
    }

    private func failure(_ status: Int32, _ operation: String, _ key: String?) -> StorageError {
        KeychainStatus.error(
            status, operation: operation, key: key, service: service, message: api.message(for: status))
    }

    /// The data of `key`; `prompt` is shown if the item is protected by biometrics.
    func read(_ key: String, prompt: String? = nil) throws(StorageError) -> Data {
        let (status, answer) = run { api.copyMatching(query(key, returning: .data, prompt: prompt)) }
        guard status == KeychainStatus.success else { throw failure(status, "SecItemCopyMatching", key) }
        guard case .data(let data) = answer else {
            throw .corrupted(path: "keychain \(service)/\(key)", reason: "the keychain returned no data")
        }
        return data
    }

    /// Whether `key` has an item, without reading its data (so without a biometric prompt).
    func contains(_ key: String) throws(StorageError) -> Bool {
        let (status, _) = run { api.copyMatching(query(key, returning: .accounts)) }
        if status == KeychainStatus.itemNotFound { return false }
        guard status == KeychainStatus.success else { throw failure(status, "SecItemCopyMatching", key) }
        return true
    }

    /// Stores `data` under `key`: updates an existing item, else adds one (and when another writer added it in
    /// between, updates that one).
    func write(_ data: Data, _ key: String) throws(StorageError) {
        let updated = run { (status: api.update(query(key), data: data), answer: ()) }.status
        if updated == KeychainStatus.success { return }
        guard updated == KeychainStatus.itemNotFound else { throw failure(updated, "SecItemUpdate", key) }
        let protection = KeychainProtection(accessibility: accessibility, biometric: false)
        let added = run { (status: api.add(query(key), data: data, protection: protection), answer: ()) }.status
        if added == KeychainStatus.success { return }
        guard added == KeychainStatus.duplicateItem else { throw failure(added, "SecItemAdd", key) }
        let retried = api.update(query(key), data: data)
        guard retried == KeychainStatus.success else { throw failure(retried, "SecItemUpdate", key) }
    }

    /// Removes `key`; a missing item is not an error.
    func delete(_ key: String) throws(StorageError) {
        let status = run { (status: api.delete(query(key)), answer: ()) }.status
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw failure(status, "SecItemDelete", key)
        }
    }

    /// The accounts of this service, sorted (attributes only: no data is read, so no prompt is shown).
    func accounts() throws(StorageError) -> [String] {
        let (status, answer) = run { api.copyMatching(query(nil, returning: .accounts)) }
        if status == KeychainStatus.itemNotFound { return [] }
        guard status == KeychainStatus.success else { throw failure(status, "SecItemCopyMatching", nil) }
        guard case .accounts(let accounts) = answer else { return [] }
        return Array(Set(accounts)).sorted()
    }

    /// Removes every item of this service: each account by name, then the service as a whole. The legacy macOS
    /// keychain may delete only one item per `SecItemDelete` without a match limit, so "every item" is never
    /// left to one call.
    func removeAll() throws(StorageError) {
        for account in try accounts() { try delete(account) }
        let status = run { (status: api.delete(query(nil)), answer: ()) }.status
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw failure(status, "SecItemDelete", nil)
        }
    }

    /// Replaces `key` with an item readable only after Face ID or Touch ID (current enrolment), on this device.
    func writeBiometric(_ data: Data, _ key: String) throws(StorageError) {
        guard platform.supportsBiometry else { throw .unsupported(feature: "biometric protection on this platform") }
        try delete(key)
        let protection = KeychainProtection(accessibility: .whenPasscodeSetThisDeviceOnly, biometric: true)
        let status = run { (status: api.add(query(key), data: data, protection: protection), answer: ()) }.status
        guard status == KeychainStatus.success else { throw failure(status, "SecItemAdd", key) }
    }

    /// Reads a biometric item, asking the user with `prompt`.
    func readBiometric(_ key: String, prompt: String) throws(StorageError) -> Data {
        guard platform.supportsBiometry else { throw .unsupported(feature: "biometric protection on this platform") }
        return try read(key, prompt: prompt)
    }
}
