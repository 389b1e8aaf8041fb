import Foundation

/// Opens, creates, migrates and re-keys a store's files, always while holding the exclusive file lock.
///
/// The rules (FORMAT.md): a store is created only in a folder with nothing but dot-files, the lock file and the
/// key file in it; an existing store is never re-created, whatever is missing; a key file is created only with
/// a new store or by a re-key; a version 1 store is migrated to version 2 when opened.
enum StoreOpener {
    /// The keys of the store in `folder`, created when the folder holds no store yet.
    static func openOrCreate(folder: String, key: StorageKey) throws(StorageError) -> StoreKeys {
        let headerPath = folder + "/store.header"
        guard let bytes = try DurableFile.read(headerPath, maximumSize: StoreHeader.length + 1) else {
            return try create(folder: folder, key: key)
        }
        let header = try StoreHeader.parse(bytes, path: headerPath)
        guard header.derivation == key.derivationCode else { throw .wrongKey(path: headerPath) }
        var master = try key.masterKey(salt: header.salt, iterations: header.iterations, creatingKeyFile: false)
        defer { Secret.wipe(&master) }
        var keys = try StoreKeys(master: master, header: header)
        guard header.verifies(keys.encryption) else {
            keys.wipe()
            throw .wrongKey(path: headerPath)
        }
        try StoreFolder.checkItemsFolder(keys.itemsFolder(in: folder))
        StoreFolder.removeLeftovers(in: folder, keeping: header.generation)
        if header.version < StoreHeader.currentVersion {
            let next = try StoreHeader.make(
                derivation: header.derivation, iterations: header.iterations, salt: header.salt,
                generation: try header.nextGeneration(path: headerPath), encryptionKey: keys.encryption)
            var migrated = keys
            migrated.header = next
            try switchGeneration(&keys, to: migrated, folder: folder)
        }
        return keys
    }

    /// Throws unless a new store may be created in `folder`: it may hold only dot-files, `store.lock` and the key
    /// file. Called before the lock file is created (so a refused folder is left as it was) and again under the
    /// lock. Before the lock (`underLock` false) an item folder without a header is not yet an error: another
    /// process may be creating the store at this moment (it makes `items-1` before it writes the header); under the
    /// lock, where no creation can be half done, the header is really missing.
    static func checkCreatable(folder: String, key: StorageKey, underLock: Bool) throws(StorageError) {
        let keyFileName: String? =
            if case .keyFile(let url) = key, DurableFile.split(url.standardizedFileURL.path).folder == folder {
                DurableFile.split(url.standardizedFileURL.path).name
            } else {
                nil
            }
        let present = try StoreFolder.entries(folder).filter {
            !$0.hasPrefix(".") && $0 != "store.lock" && $0 != "store.header" && $0 != keyFileName
        }
        if present.contains(where: { StoreFolder.generation(ofItemsFolder: $0) != nil }) {
            guard underLock else { return }  // decided under the lock, once any creation in progress has ended
            throw .corrupted(
                path: folder + "/store.header",
                reason: "missing while the folder holds \(present.sorted().prefix(5).joined(separator: ", ")); "
                    + "the store's header was deleted or lost, so no key can open it and nothing was changed")
        }
        guard present.isEmpty else {
            throw .refused(
                path: folder,
                reason: "not a store and not empty (\(present.sorted().prefix(5).joined(separator: ", "))); "
                    + "a new store is created only in an empty folder")
        }
    }

    private static func create(folder: String, key: StorageKey) throws(StorageError) -> StoreKeys {
        let headerPath = folder + "/store.header"
        try checkCreatable(folder: folder, key: key, underLock: true)
        let keys = try newKeys(for: key, generation: 1)
        try DurableFile.makeFolder(folder + "/items-1")
        guard try DurableFile.write(keys.header.bytes, to: headerPath, replacing: false) else {
            throw .unavailable(reason: "\(headerPath) was created by someone not holding the store's lock; open again")
        }
        return keys
    }

    /// The keys and header for `key` with a fresh salt (the store identifier) at `generation`: a new store, or the
    /// target of a re-key. A missing key file is created.
    static func newKeys(for key: StorageKey, generation: UInt32) throws(StorageError) -> StoreKeys {
        let salt = Crypto.randomBytes(StoreHeader.saltLength)
        let iterations = try key.newIterations()
        var master = try key.masterKey(salt: salt, iterations: iterations, creatingKeyFile: true)
        defer { Secret.wipe(&master) }
        var keys = try StoreKeys(master: master, header: .placeholder)
        keys.header = try StoreHeader.make(
            derivation: key.derivationCode, iterations: iterations, salt: salt, generation: generation,
            encryptionKey: keys.encryption)
        return keys
    }

    /// Re-encrypts every item of `keys` into the folder of `next`'s generation, then replaces the header. Until
    /// the header is replaced the store is what it was (a failure removes the new folder); from then on `keys`
    /// is `next`, even when the final `fsync` of the folder fails: that is reported to
    /// ``StorageDiagnostics/handler`` as a warning, not thrown, because the new key is already the one to keep.
    static func switchGeneration(
        _ keys: inout StoreKeys, to next: StoreKeys, folder: String
    ) throws(StorageError) {
        var next = next
        let oldFolder = keys.itemsFolder(in: folder)
        let newFolder = next.itemsFolder(in: folder)
        StoreFolder.removeGeneration(newFolder)
        do {
            try DurableFile.makeFolder(newFolder)
            try StoreFolder.checkItemsFolder(newFolder)
            for item in try ItemFolder.items(in: oldFolder, context: keys.item) {
                try ItemFolder.write(
                    item.value, name: item.name, in: newFolder, context: next.item, scratch: &next.scratch)
            }
            try DurableFile.syncFolder(newFolder)
            try DurableFile.write(next.header.bytes, to: folder + "/store.header", syncingFolder: false)
        } catch {
            StoreFolder.removeGeneration(newFolder)
            throw error
        }
        keys.wipe()
        keys = next
        do {
            try DurableFile.syncFolder(folder)
        } catch {
            StorageDiagnostics.report(
                .unavailable(
                    reason: "\(error.description); the header of generation \(next.header.generation) is in place "
                        + "and its key is the one to keep"))
        }
        StoreFolder.removeGeneration(oldFolder)
    }
}
