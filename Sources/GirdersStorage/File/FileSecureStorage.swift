public import Foundation
import GirdersSupport

/// A ``SecureStorage`` in a folder of AES-256-GCM encrypted files: the default on Linux, available everywhere.
///
/// One file per item (named by an HMAC of the key, so key names are not readable), each with a fresh random
/// nonce and bound to its name and its store; a header with the key-derivation parameters and a check that tells
/// a wrong key from damage. Every write is durable when it returns (temporary file, `fsync`, `rename`, `fsync`
/// of the folder), costs the same whether the store holds 10 items or 10,000, and is safe from many threads and
/// from several processes at once (`flock`). The layout is documented byte by byte in
/// `Sources/GirdersStorage/FORMAT.md`.
///
/// Damaged, hostile or mistaken stores are errors, never crashes or changes: a header is validated field by field
/// before use, an existing store is never re-created, the folder must be ours and not a link, item files must be
/// regular files of at most 2 GiB and are read without following links or blocking. Key names compare in Unicode
/// NFC, as `String` does.
///
/// ```swift
/// let storage = try FileSecureStorage(folder: appSupport.appendingPathComponent("secrets"),
///                                     key: .keyFile(appSupport.appendingPathComponent("secrets.key")))
/// try storage.writeString(token, forKey: "token")
/// ```
public final class FileSecureStorage: SecureStorage {
    /// The folder the store lives in (mode 0700, owned by this user); every file of the store is inside it.
    public let folder: URL
    private let folderPath: String
    private let headerPath: String
    private let state: LockedState<StoreKeys>
    private let lockDescriptor: Int32

    /// Opens the store in `folder` with `key`; when `folder` is missing or empty, creates the folder (0700), the
    /// header, and for ``StorageKey/keyFile(_:)`` a missing key file. A folder of ours with a looser mode is
    /// tightened to 0700.
    /// - Throws: ``StorageError/wrongKey(path:)`` when `key` does not open an existing store (nothing is
    ///   changed); ``StorageError/corrupted(path:reason:)`` for a damaged header or a store whose header is gone;
    ///   ``StorageError/refused(path:reason:)`` for a folder that is a link, not ours, or not empty and not a
    ///   store; ``StorageError/keyFileMissing(path:)`` and ``StorageError/invalidKey(reason:)`` for key material;
    ///   ``StorageError/unavailable(reason:)`` for file system errors, and on Linux when OpenSSL's
    ///   `libcrypto.so.3` cannot be loaded (the reason names what is missing and the package to install).
    public init(folder: URL, key: StorageKey) throws(StorageError) {
        self.folder = folder
        let folderPath = folder.standardizedFileURL.path
        self.folderPath = folderPath
        self.headerPath = folderPath + "/store.header"
        if let failure = Crypto.libraryFailure { throw .unavailable(reason: failure) }
        try StoreFolder.prepare(folderPath)
        if access(headerPath, F_OK) != 0 {
            try StoreOpener.checkCreatable(folder: folderPath, key: key, underLock: false)
        }
        let descriptor = try StoreFolder.openLock(folderPath + "/store.lock")
        lockDescriptor = descriptor
        do {
            let keys = try Self.withFileLock(descriptor, exclusive: true) { () throws(StorageError) -> StoreKeys in
                try StoreOpener.openOrCreate(folder: folderPath, key: key)
            }
            state = LockedState(keys)
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        state.withLock { $0.wipe() }
        close(lockDescriptor)
    }

    // MARK: Locks and re-keys by others

    /// Runs `body` holding the in-process lock and the file lock, with the current keys (re-checked against
    /// the header, so a store re-keyed by another process is noticed).
    private func locked<Result>(
        exclusive: Bool, _ body: (inout StoreKeys) throws(StorageError) -> Result
    ) throws(StorageError) -> Result {
        try state.withLock { keys throws(StorageError) -> Result in
            try Self.withFileLock(lockDescriptor, exclusive: exclusive) { () throws(StorageError) -> Result in
                _ = try refresh(&keys)
                return try body(&keys)
            }
        }
    }

    /// Compares `store.header` with the one `keys` opened, byte for byte (an inode can be reused, its content
    /// cannot: every header has a fresh random check nonce). When another process replaced it and `keys` still
    /// open it (a re-key back to the same raw key or key file), adopts it; otherwise throws
    /// ``StorageError/wrongKey(path:)``.
    /// - Returns: whether the header changed.
    private func refresh(_ keys: inout StoreKeys) throws(StorageError) -> Bool {
        guard let bytes = try DurableFile.read(headerPath, maximumSize: StoreHeader.length + 1) else {
            throw .corrupted(path: headerPath, reason: "the header is missing")
        }
        if bytes == keys.header.bytes { return false }
        let header = try StoreHeader.parse(bytes, path: headerPath)
        guard header.derivation == keys.header.derivation, header.verifies(keys.encryption) else {
            throw .wrongKey(path: headerPath)
        }
        keys.header = header
        return true
    }

    private static func withFileLock<Result>(
        _ descriptor: Int32, exclusive: Bool, _ body: () throws(StorageError) -> Result
    ) throws(StorageError) -> Result {
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { throw .unavailable(reason: "flock: \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    // MARK: Operations

    /// The bytes under `key`.
    ///
    /// Reads take no file lock: every item file is replaced by a rename, so a reader sees a whole old or a whole
    /// new value. A read that finds nothing or cannot decrypt checks whether another process re-keyed the store
    /// meanwhile, follows it when this instance's key still opens the store, and otherwise reports
    /// ``StorageError/wrongKey(path:)``.
    public func readData(forKey key: String) throws(StorageError) -> Data {
        let name = KeyName.canonical(key)
        return try state.withLock { keys throws(StorageError) -> Data in
            while true {
                let folder = keys.itemsFolder(in: folderPath)
                let item: (name: String, value: Data)?
                do throws(StorageError) {
                    item = try ItemFolder.read(
                        try StoreItem.fileName(for: name, nameKey: keys.names), in: folder, context: keys.item,
                        expectedName: name)
                } catch {
                    if try refresh(&keys) { continue }
                    throw error
                }
                guard let item else {
                    if try refresh(&keys) { continue }
                    throw .notFound(key: key)
                }
                return item.value
            }
        }
    }

    /// Stores `data` under `key` durably.
    /// - Throws: ``StorageError/tooLarge(key:bytes:limit:)`` for values near 2 GiB, before anything is written.
    public func writeData(_ data: Data, forKey key: String) throws(StorageError) {
        let name = KeyName.canonical(key)
        try locked(exclusive: true) { keys throws(StorageError) in
            try ItemFolder.write(
                data, name: name, in: keys.itemsFolder(in: folderPath), context: keys.item, scratch: &keys.scratch)
        }
    }

    /// Removes `key` durably.
    public func deleteData(forKey key: String) throws(StorageError) {
        let name = KeyName.canonical(key)
        try locked(exclusive: true) { keys throws(StorageError) in
            try DurableFile.remove(
                keys.itemsFolder(in: folderPath) + "/" + StoreItem.fileName(for: name, nameKey: keys.names))
        }
    }

    /// Every key, decrypted from the item files and each checked against its file name, sorted.
    public func allKeys() throws(StorageError) -> [String] {
        try locked(exclusive: false) { keys throws(StorageError) -> [String] in
            try ItemFolder.items(in: keys.itemsFolder(in: folderPath), context: keys.item).map(\.name).sorted()
        }
    }

    /// Removes every item durably.
    public func removeAll() throws(StorageError) {
        try locked(exclusive: true) { keys throws(StorageError) in
            let folder = keys.itemsFolder(in: folderPath)
            for name in try ItemFolder.fileNames(folder) {
                if unlink(folder + "/" + name) != 0 && errno != ENOENT {
                    throw DurableFile.failure("remove", folder + "/" + name)
                }
            }
            try DurableFile.syncFolder(folder)
        }
    }

    /// Re-encrypts every item under `newKey`, atomically: until the new header replaces the old one, the store
    /// opens with the old key; afterwards only with the new one. A crash in between leaves the old store intact.
    /// A ``StorageKey/keyFile(_:)`` that does not exist yet is created. Should the final `fsync` of the folder
    /// fail after the new header is in place, the re-key still succeeds (the new key is the one to keep) and the
    /// failure goes to ``StorageDiagnostics/handler`` as a warning.
    /// - Throws: any error of reading or writing before the new header is in place; the store is unchanged.
    public func rekey(to newKey: StorageKey) throws(StorageError) {
        try locked(exclusive: true) { keys throws(StorageError) in
            let next = try StoreOpener.newKeys(
                for: newKey, generation: try keys.header.nextGeneration(path: headerPath))
            try StoreOpener.switchGeneration(&keys, to: next, folder: folderPath)
        }
    }
}
