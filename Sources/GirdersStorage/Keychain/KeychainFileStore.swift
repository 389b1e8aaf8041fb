import Foundation
import GirdersSupport

/// The file store behind ``KeychainStorage`` where there is no keychain (Linux), or where the app asks for one
/// (``KeychainStorage/init(folder:keyFile:)``): a ``FileSecureStorage`` opened on first use.
///
/// When it cannot open (a home folder that is not writable, say), each operation throws and the next one tries
/// again.
struct KeychainFileStore: Sendable {
    let folder: URL
    let keyFile: URL
    private let store = LockedState<FileSecureStorage?>(nil)

    init(folder: URL, keyFile: URL) {
        self.folder = folder
        self.keyFile = keyFile
    }

    /// `<data home>/[<access group>/]<service>/keychain`, with the key file `keychain.key` beside it.
    init(service: String, accessGroup: String?, environment: [String: String]) {
        var application = Self.dataHome(environment)
        if let accessGroup { application.appendPathComponent(Self.folderName(accessGroup), isDirectory: true) }
        application.appendPathComponent(Self.folderName(service), isDirectory: true)
        self.init(
            folder: application.appendingPathComponent("keychain"),
            keyFile: application.appendingPathComponent("keychain.key"))
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
            // `homeDirectoryForCurrentUser` exists on macOS only; `NSHomeDirectory()` everywhere.
            home = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
        }
        return home.appendingPathComponent(".local/share", isDirectory: true)
    }

    /// `name` as one safe path component: never empty, `.` or `..`, and without `/` or control characters.
    static func folderName(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)
        let bytes = name.utf8.prefix(200).map { allowed.contains($0) ? $0 : UInt8(ascii: "_") }
        let safe = String(decoding: bytes, as: UTF8.self)
        return safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "girders" + safe : safe
    }

    /// The open store, opening it when this is the first use or an earlier attempt failed.
    func opened() throws(StorageError) -> FileSecureStorage {
        try store.withLock { store throws(StorageError) -> FileSecureStorage in
            if let store { return store }
            let opened = try FileSecureStorage(folder: folder, key: .keyFile(keyFile))
            store = opened
            return opened
        }
    }
}
