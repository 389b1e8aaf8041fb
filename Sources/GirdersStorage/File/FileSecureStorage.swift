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
    private let folderPath: String
    private let headerPath: String
    private let state: LockedValue<Keys>
    private let lockDescriptor: Int32

    /// The keys and generation of the open store.
    struct Keys {
        var encryption: [UInt8]
        var names: [UInt8]
        var generation: UInt32
        var headerIdentity: FileIdentity
        /// The buffer item files are encrypted into, reused between writes (kept only up to 4 MiB).
        var scratch: [UInt8] = []
    }

    /// Opens the store in `folder` with `key`, creating folder (0700), header and key file on first use.
    /// - Throws: ``StorageError/wrongKey(path:)`` when `key` does not open an existing store (nothing is
    ///   changed), ``StorageError/corrupted(path:reason:)`` for a damaged header, ``StorageError/invalidKey(reason:)``
    ///   for unusable key material, ``StorageError/unavailable(reason:)`` for file system errors.
    public init(folder: URL, key: StorageKey) throws(StorageError) {
        self.folder = folder
        let folderPath = folder.standardizedFileURL.path
        self.folderPath = folderPath
        self.headerPath = folderPath + "/store.header"
        try DurableFile.makeFolder(folderPath)
        let lockPath = folderPath + "/store.lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DurableFile.failure("open", lockPath) }
        lockDescriptor = descriptor
        do {
            let keys = try Self.withFileLock(descriptor, exclusive: true) { () throws(StorageError) -> Keys in
                try Self.openOrCreate(folder: folderPath, key: key)
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

    private static func openOrCreate(folder: String, key: StorageKey) throws(StorageError) -> Keys {
        let headerPath = folder + "/store.header"
        guard let bytes = try DurableFile.read(headerPath) else {
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
            try DurableFile.makeFolder(folder + "/items-1")
            try DurableFile.write(header.bytes, to: headerPath, replacing: false)
            keys.headerIdentity = FileIdentity(headerPath)
            return keys
        }
        let header = try StoreFormat.Header.parse(bytes, path: headerPath)
        guard header.derivation == key.derivationCode else { throw .wrongKey(path: headerPath) }
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
            throw .wrongKey(path: headerPath)
        }
        var keys = derive(master, generation: header.generation)
        guard header.verifies(keys.encryption) else { throw .wrongKey(path: headerPath) }
        keys.headerIdentity = FileIdentity(headerPath)
        try DurableFile.makeFolder(folder + "/items-\(header.generation)")
        removeStaleGenerations(in: folder, keeping: header.generation)
        removeTemporaryFiles(in: [folder, folder + "/items-\(header.generation)"])
        return keys
    }

    static func derive(_ master: [UInt8], generation: UInt32) -> Keys {
        Keys(
            encryption: Crypto.expand(master, info: "girders-storage/v1/encryption"),
            names: Crypto.expand(master, info: "girders-storage/v1/names"), generation: generation,
            headerIdentity: FileIdentity())
    }

    /// Removes item folders of other generations (left by a re-key that crashed or completed).
    private static func removeStaleGenerations(in folder: String, keeping generation: UInt32) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix("items-") && name != "items-\(generation)" {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// Removes temporary files a killed writer left behind. Safe here: writers hold the exclusive file lock from
    /// creating a temporary file until renaming it, and opening holds it too.
    private static func removeTemporaryFiles(in folders: [String]) {
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
                unlink(folder + "/" + name)
            }
        }
    }

    // MARK: Operations

    private func itemsFolder(_ keys: Keys) -> String {
        folderPath + "/items-\(keys.generation)"
    }

    static func fileName(for key: String, nameKey: [UInt8]) -> String {
        let mac = Crypto.hmacSHA256(key: nameKey, data: Array(key.utf8))
        return String(unsafeUninitializedCapacity: mac.count * 2) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for (index, byte) in mac.enumerated() {
                buffer[index * 2] = digits.utf8Start[Int(byte >> 4)]
                buffer[index * 2 + 1] = digits.utf8Start[Int(byte & 0x0F)]
            }
            return mac.count * 2
        }
    }

    /// Runs `body` holding the in-process lock and the file lock, with the current keys (re-checked against
    /// the header, so a store re-keyed by another process is noticed).
    private func locked<Result>(
        exclusive: Bool, _ body: (inout Keys) throws(StorageError) -> Result
    ) throws(StorageError)
        -> Result
    {
        try state.withLock { keys throws(StorageError) -> Result in
            try Self.withFileLock(lockDescriptor, exclusive: exclusive) { () throws(StorageError) -> Result in
                try checkHeader(keys)
                return try body(&keys)
            }
        }
    }

    /// Throws ``StorageError/wrongKey(path:)`` when another process re-keyed the store since it was opened.
    private func checkHeader(_ keys: Keys) throws(StorageError) {
        if FileIdentity(headerPath) != keys.headerIdentity { throw .wrongKey(path: headerPath) }
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
    ///
    /// Reads take no file lock: every item file is replaced by a rename, so a reader sees a whole old or a whole
    /// new value. A read that finds nothing or cannot decrypt checks whether another process re-keyed the store
    /// meanwhile and then reports ``StorageError/wrongKey(path:)``.
    public func readData(forKey key: String) throws(StorageError) -> Data {
        try state.withLock { keys throws(StorageError) -> Data in
            let name = Self.fileName(for: key, nameKey: keys.names)
            let path = itemsFolder(keys) + "/" + name
            guard let bytes = try DurableFile.read(path) else {
                try checkHeader(keys)
                throw .notFound(key: key)
            }
            let item: (name: String, value: Data)
            do throws(StorageError) {
                item = try StoreFormat.openItem(bytes, fileName: name, key: keys.encryption, path: path)
            } catch {
                try checkHeader(keys)
                throw error
            }
            guard item.name == key else { throw .corrupted(path: path, reason: "the item holds another key") }
            return item.value
        }
    }

    /// Stores `data` under `key` durably.
    public func writeData(_ data: Data, forKey key: String) throws(StorageError) {
        try locked(exclusive: true) { keys throws(StorageError) in
            let name = Self.fileName(for: key, nameKey: keys.names)
            try StoreFormat.sealItem(name: key, value: data, fileName: name, key: keys.encryption, into: &keys.scratch)
            try DurableFile.write(keys.scratch, to: itemsFolder(keys) + "/" + name)
            if keys.scratch.capacity > 4 << 20 { keys.scratch = [] }
        }
    }

    /// Removes `key` durably.
    public func deleteData(forKey key: String) throws(StorageError) {
        try locked(exclusive: true) { keys throws(StorageError) in
            try DurableFile.remove(itemsFolder(keys) + "/" + Self.fileName(for: key, nameKey: keys.names))
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
                if unlink(folder + "/" + name) != 0 && errno != ENOENT {
                    throw DurableFile.failure("remove", folder + "/" + name)
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
            let nextFolder = folderPath + "/items-\(generation)"
            try? FileManager.default.removeItem(atPath: nextFolder)
            try DurableFile.makeFolder(nextFolder)
            for item in try items(keys) {
                let name = Self.fileName(for: item.name, nameKey: next.names)
                try StoreFormat.sealItem(
                    name: item.name, value: item.value, fileName: name, key: next.encryption, into: &next.scratch)
                try DurableFile.write(next.scratch, to: nextFolder + "/" + name)
            }
            let header = try StoreFormat.Header.make(
                derivation: newKey.derivationCode, iterations: UInt32(newKey.iterations), salt: salt,
                generation: generation, encryptionKey: next.encryption)
            try DurableFile.write(header.bytes, to: headerPath)
            next.headerIdentity = FileIdentity(headerPath)
            let old = itemsFolder(keys)
            keys = next
            try? FileManager.default.removeItem(atPath: old)
        }
    }

    private func fileNames(in folder: String) throws(StorageError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
        } catch {
            throw .unavailable(reason: "cannot list \(folder): \(error.localizedDescription)")
        }
    }

    private func items(_ keys: Keys) throws(StorageError) -> [(name: String, value: Data)] {
        let folder = itemsFolder(keys)
        var result: [(name: String, value: Data)] = []
        for name in try fileNames(in: folder) {
            let path = folder + "/" + name
            guard let bytes = try DurableFile.read(path) else { continue }
            result.append(try StoreFormat.openItem(bytes, fileName: name, key: keys.encryption, path: path))
        }
        return result
    }
}

/// A file's device and inode: changes when the file is replaced by a rename.
struct FileIdentity: Equatable {
    var device: UInt64 = 0
    var inode: UInt64 = 0

    init() {}

    init(_ path: String) {
        var status = stat()
        if stat(path, &status) == 0 {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }
}
