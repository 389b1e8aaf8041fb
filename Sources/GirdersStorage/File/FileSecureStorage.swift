public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``SecureStorage`` in a folder of AES-256-GCM encrypted files: the default on Linux, available everywhere.
///
/// One file per item (named by an HMAC of the key, so key names are not readable), each with a fresh random
/// nonce; a header with the key-derivation parameters and a check that tells a wrong key from damage. Every
/// write is durable when it returns (temporary file, `fsync`, `rename`, `fsync` of the folder), costs the same
/// whether the store holds 10 items or 10,000, and is safe from many threads and from several processes at once
/// (`flock`). The layout is documented byte by byte in `Sources/GirdersStorage/FORMAT.md`.
///
/// ```swift
/// let storage = try FileSecureStorage(folder: appSupport.appendingPathComponent("secrets"),
///                                     key: .keyFile(appSupport.appendingPathComponent("secrets.key")))
/// try storage.writeString(token, forKey: "token")
/// ```
public final class FileSecureStorage: SecureStorage {
    /// The store's folder.
    public let folder: URL
    private let state: LockedValue<Keys>
    private let lockDescriptor: Int32

    /// The keys and generation of the open store.
    struct Keys {
        var encryption: [UInt8]
        var names: [UInt8]
        var generation: UInt32
        var headerIdentity: FileIdentity
    }

    private var headerURL: URL { folder.appendingPathComponent("store.header") }

    /// Opens the store in `folder` with `key`, creating folder (0700), header and key file on first use.
    /// - Throws: ``StorageError/wrongKey(path:)`` when `key` does not open an existing store (nothing is
    ///   changed), ``StorageError/corrupted(path:reason:)`` for a damaged header, ``StorageError/invalidKey(reason:)``
    ///   for unusable key material, ``StorageError/unavailable(reason:)`` for file system errors.
    public init(folder: URL, key: StorageKey) throws(StorageError) {
        self.folder = folder
        try DurableFile.makeFolder(folder)
        let lockPath = folder.appendingPathComponent("store.lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DurableFile.failure("open", URL(fileURLWithPath: lockPath)) }
        lockDescriptor = descriptor
        do {
            let keys = try Self.withFileLock(descriptor, exclusive: true) { () throws(StorageError) -> Keys in
                try Self.openOrCreate(folder: folder, key: key)
            }
            state = LockedValue(keys)
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(lockDescriptor)
    }

    private static func openOrCreate(folder: URL, key: StorageKey) throws(StorageError) -> Keys {
        let headerURL = folder.appendingPathComponent("store.header")
        guard let bytes = try DurableFile.read(headerURL) else {
            let salt: [UInt8]
            do {
                salt = try Crypto.randomBytes(StoreFormat.saltLength)
            } catch {
                throw .unavailable(reason: error.reason)
            }
            let master = try key.masterKey(salt: salt)
            var keys = derive(master, generation: 1)
            let header = try StoreFormat.Header.make(
                derivation: key.derivationCode, iterations: UInt32(key.iterations), salt: salt, generation: 1,
                encryptionKey: keys.encryption)
            try DurableFile.makeFolder(folder.appendingPathComponent("items-1"))
            try DurableFile.write(header.bytes, to: headerURL, replacing: false)
            keys.headerIdentity = FileIdentity(headerURL)
            return keys
        }
        let header = try StoreFormat.Header.parse(bytes, path: headerURL.path)
        guard header.derivation == key.derivationCode else { throw .wrongKey(path: headerURL.path) }
        let effectiveKey: StorageKey =
            if case .passphrase(let passphrase, _) = key {
                .passphrase(passphrase, iterations: Int(header.iterations))
            } else {
                key
            }
        let master: [UInt8]
        do {
            master = try effectiveKey.masterKey(salt: header.salt)
        } catch .invalidKey where header.derivation == 1 {
            throw .wrongKey(path: headerURL.path)
        }
        var keys = derive(master, generation: header.generation)
        guard header.verifies(keys.encryption) else { throw .wrongKey(path: headerURL.path) }
        keys.headerIdentity = FileIdentity(headerURL)
        try DurableFile.makeFolder(folder.appendingPathComponent("items-\(header.generation)"))
        removeStaleGenerations(in: folder, keeping: header.generation)
        return keys
    }

    static func derive(_ master: [UInt8], generation: UInt32) -> Keys {
        Keys(
            encryption: Crypto.expand(master, info: "girders-storage/v1/encryption"),
            names: Crypto.expand(master, info: "girders-storage/v1/names"), generation: generation,
            headerIdentity: FileIdentity())
    }

    /// Removes item folders of other generations (left by a re-key that crashed or completed).
    private static func removeStaleGenerations(in folder: URL, keeping generation: UInt32) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix("items-") && name != "items-\(generation)" {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    // MARK: Operations

    private func itemsFolder(_ keys: Keys) -> URL {
        folder.appendingPathComponent("items-\(keys.generation)")
    }

    static func fileName(for key: String, nameKey: [UInt8]) -> String {
        let mac = Crypto.hmacSHA256(key: nameKey, data: Array(key.utf8))
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        return String(decoding: mac.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// Runs `body` holding the in-process lock and the file lock, with the current keys (re-checked against
    /// the header, so a store re-keyed by another process is noticed).
    private func locked<Result>(exclusive: Bool, _ body: (inout Keys) throws(StorageError) -> Result) throws(StorageError)
        -> Result
    {
        try state.withLock { keys throws(StorageError) -> Result in
            try Self.withFileLock(lockDescriptor, exclusive: exclusive) { () throws(StorageError) -> Result in
                if FileIdentity(headerURL) != keys.headerIdentity { throw .wrongKey(path: headerURL.path) }
                return try body(&keys)
            }
        }
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

    /// The bytes under `key`.
    public func readData(forKey key: String) throws(StorageError) -> Data {
        try locked(exclusive: false) { keys throws(StorageError) -> Data in
            let name = Self.fileName(for: key, nameKey: keys.names)
            let url = itemsFolder(keys).appendingPathComponent(name)
            guard let bytes = try DurableFile.read(url) else { throw .notFound(key: key) }
            let item = try StoreFormat.openItem(bytes, fileName: name, key: keys.encryption, path: url.path)
            guard item.name == key else { throw .corrupted(path: url.path, reason: "the item holds another key") }
            return Data(item.value)
        }
    }

    /// Stores `data` under `key` durably.
    public func writeData(_ data: Data, forKey key: String) throws(StorageError) {
        try locked(exclusive: true) { keys throws(StorageError) in
            let name = Self.fileName(for: key, nameKey: keys.names)
            let sealed = try StoreFormat.sealItem(name: key, value: Array(data), fileName: name, key: keys.encryption)
            try DurableFile.write(sealed, to: itemsFolder(keys).appendingPathComponent(name))
        }
    }

    /// Removes `key` durably.
    public func deleteData(forKey key: String) throws(StorageError) {
        try locked(exclusive: true) { keys throws(StorageError) in
            try DurableFile.remove(itemsFolder(keys).appendingPathComponent(Self.fileName(for: key, nameKey: keys.names)))
        }
    }

    /// Every key, decrypted from the item files, sorted.
    public func allKeys() throws(StorageError) -> [String] {
        try locked(exclusive: false) { keys throws(StorageError) -> [String] in
            try items(keys).map(\.name).sorted()
        }
    }

    /// Removes every item durably.
    public func removeAll() throws(StorageError) {
        try locked(exclusive: true) { keys throws(StorageError) in
            let folder = itemsFolder(keys)
            for name in try fileNames(in: folder) {
                if unlink(folder.appendingPathComponent(name).path) != 0 && errno != ENOENT {
                    throw DurableFile.failure("remove", folder.appendingPathComponent(name))
                }
            }
            try DurableFile.syncFolder(folder)
        }
    }

    /// Re-encrypts every item under `newKey`, atomically: until the new header replaces the old one, the store
    /// opens with the old key; afterwards only with the new one. A crash in between leaves the old store intact.
    public func rekey(to newKey: StorageKey) throws(StorageError) {
        try locked(exclusive: true) { keys throws(StorageError) in
            let salt: [UInt8]
            do throws(Crypto.Failure) {
                salt = try Crypto.randomBytes(StoreFormat.saltLength)
            } catch {
                throw .unavailable(reason: error.reason)
            }
            let generation = keys.generation + 1
            var next = Self.derive(try newKey.masterKey(salt: salt), generation: generation)
            let nextFolder = folder.appendingPathComponent("items-\(generation)")
            try? FileManager.default.removeItem(at: nextFolder)
            try DurableFile.makeFolder(nextFolder)
            for item in try items(keys) {
                let name = Self.fileName(for: item.name, nameKey: next.names)
                let sealed = try StoreFormat.sealItem(name: item.name, value: item.value, fileName: name, key: next.encryption)
                try DurableFile.write(sealed, to: nextFolder.appendingPathComponent(name))
            }
            let header = try StoreFormat.Header.make(
                derivation: newKey.derivationCode, iterations: UInt32(newKey.iterations), salt: salt,
                generation: generation, encryptionKey: next.encryption)
            try DurableFile.write(header.bytes, to: headerURL)
            next.headerIdentity = FileIdentity(headerURL)
            let old = itemsFolder(keys)
            keys = next
            try? FileManager.default.removeItem(at: old)
        }
    }

    private func fileNames(in folder: URL) throws(StorageError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        } catch {
            throw .unavailable(reason: "cannot list \(folder.path): \(error.localizedDescription)")
        }
    }

    private func items(_ keys: Keys) throws(StorageError) -> [(name: String, value: [UInt8])] {
        let folder = itemsFolder(keys)
        var result: [(name: String, value: [UInt8])] = []
        for name in try fileNames(in: folder) {
            let url = folder.appendingPathComponent(name)
            guard let bytes = try DurableFile.read(url) else { continue }
            result.append(try StoreFormat.openItem(bytes, fileName: name, key: keys.encryption, path: url.path))
        }
        return result
    }
}

/// A file's device and inode: changes when the file is replaced by a rename.
struct FileIdentity: Equatable {
    var device: UInt64 = 0
    var inode: UInt64 = 0

    init() {}

    init(_ url: URL) {
        var status = stat()
        if stat(url.path, &status) == 0 {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }
}
