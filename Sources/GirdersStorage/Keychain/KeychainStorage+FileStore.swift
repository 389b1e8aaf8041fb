#if !(canImport(Security) && canImport(LocalAuthentication))
public import Foundation

/// GirdersSwift's `KeychainStorage` where there is no keychain (Linux): a ``FileSecureStorage`` in the user's
/// data folder, so `KeychainStorage.shared.save(string:forKey:)` works on every platform.
///
/// The store is `<data home>/<service>/keychain/` with its key file `<data home>/<service>/keychain.key` beside
/// it, where the data home is `$XDG_DATA_HOME` when that is an absolute path, else `~/.local/share`, and the
/// service is the main bundle's identifier or else the executable's name (characters other than letters, digits,
/// `.`, `_` and `-` become `_`). The folder is created 0700 and the key file 0600 on first use.
///
/// What protects it: file permissions. Another user of the machine cannot read the key file or the items; the
/// items are encrypted and authenticated (AES-256-GCM), so a copy of the store alone, a backup without the key
/// file, or a damaged disk reveals nothing and changes nothing unnoticed. What does not: any process running as
/// the same user (or as root) can read the key file and so every item, which the Apple keychain would prevent;
/// store secrets that must survive that in a ``FileSecureStorage`` opened with a passphrase the user types.
///
/// The store opens on first use, not when `shared` is created; when it cannot open (for example a home folder
/// that is not writable), each operation throws ``StorageError`` (and GirdersSwift's non-throwing API returns
/// `nil` or `false` and reports to ``StorageDiagnostics``), and the next operation tries again.
///
/// ```swift
/// KeychainStorage.shared.save(string: token, forKey: "token")
/// let token = KeychainStorage.shared.string(forKey: "token")
/// ```
public final class KeychainStorage: SecureStorage {
    /// The store GirdersSwift apps use: the default service in the default data home.
    public static let shared = KeychainStorage()

    /// The folder the stand-in store lives in: `<data home>/<service>/keychain`, with its key file beside it.
    public let folder: URL
    /// The key file beside it.
    public let keyFile: URL
    private let store = LockedState<FileSecureStorage?>(nil)

    /// The store of `service` (by default the bundle identifier or the executable's name) in the data home of
    /// `environment` (`XDG_DATA_HOME`, else `HOME`'s `.local/share`, else the user's home folder).
    public convenience init(
        service: String = KeychainStorage.defaultService,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        let application = Self.dataHome(environment).appendingPathComponent(Self.folderName(service))
        self.init(
            folder: application.appendingPathComponent("keychain"),
            keyFile: application.appendingPathComponent("keychain.key"))
    }

    /// A store in `folder` with the key in `keyFile`.
    public init(folder: URL, keyFile: URL) {
        self.folder = folder
        self.keyFile = keyFile
    }

    /// The main bundle's identifier, or else the executable's name.
    public static var defaultService: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// `$XDG_DATA_HOME` when absolute (the XDG Base Directory rules ignore a relative one), else
    /// `$HOME/.local/share`, else the home folder Foundation reports plus `.local/share`.
    static func dataHome(_ environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        let home: URL
        if let path = environment["HOME"], path.hasPrefix("/") {
            home = URL(fileURLWithPath: path, isDirectory: true)
        } else {
            home = FileManager.default.homeDirectoryForCurrentUser
        }
        return home.appendingPathComponent(".local/share", isDirectory: true)
    }

    /// `service` as one safe path component: never empty, `.` or `..`, and without `/` or control characters.
    static func folderName(_ service: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)
        let bytes = service.utf8.prefix(200).map { allowed.contains($0) ? $0 : UInt8(ascii: "_") }
        let name = String(decoding: bytes, as: UTF8.self)
        return name.isEmpty || name.allSatisfy({ $0 == "." }) ? "girders" + name : name
    }

    /// The open store, opening it when this is the first use or an earlier attempt failed.
    private func opened() throws(StorageError) -> FileSecureStorage {
        try store.withLock { store throws(StorageError) -> FileSecureStorage in
            if let store { return store }
            let opened = try FileSecureStorage(folder: folder, key: .keyFile(keyFile))
            store = opened
            return opened
        }
    }

    /// The bytes under `key`.
    public func readData(forKey key: String) throws(StorageError) -> Data {
        try opened().readData(forKey: key)
    }

    /// Stores `data` under `key`, durably.
    public func writeData(_ data: Data, forKey key: String) throws(StorageError) {
        try opened().writeData(data, forKey: key)
    }

    /// Removes the value under `key`.
    public func deleteData(forKey key: String) throws(StorageError) {
        try opened().deleteData(forKey: key)
    }

    /// Every key with a value, sorted.
    public func allKeys() throws(StorageError) -> [String] {
        try opened().allKeys()
    }

    /// Removes every value.
    public func removeAll() throws(StorageError) {
        try opened().removeAll()
    }
}
#endif
import GirdersSupport
