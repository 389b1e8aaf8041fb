import Foundation

/// The store's folder and what may be in it: checks that it is ours before anything is read or written, opens
/// the lock file safely, and removes what killed writers and finished re-keys leave behind (FORMAT.md, "Files").
///
/// Nothing here follows a symbolic link: the folder, `store.lock` and `items-<generation>` must be the real
/// thing, and clean-up only unlinks entries (which never follows a link) inside our own item folders.
enum StoreFolder {
    /// Creates `folder` (0700, with its parents) when missing; otherwise checks that it is a folder, not a
    /// symbolic link, owned by the current user, and tightens its mode to 0700 when group or others have access.
    static func prepare(_ folder: String) throws(StorageError) {
        var status = stat()
        if lstat(folder, &status) != 0 {
            guard errno == ENOENT || errno == ENOTDIR else { throw DurableFile.failure("stat", folder) }
            try DurableFile.makeFolder(folder)
            guard lstat(folder, &status) == 0 else { throw DurableFile.failure("stat", folder) }
        }
        try checkOwnedFolder(folder, status)
        if status.st_mode & 0o077 != 0 {
            guard chmod(folder, 0o700) == 0 else { throw DurableFile.failure("chmod 700", folder) }
        }
    }

    /// Opens (creating when missing, mode 0600) the lock file, which must be a regular file of ours.
    static func openLock(_ path: String) throws(StorageError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .refused(path: path, reason: "the lock file is a symbolic link") }
            throw DurableFile.failure("open", path)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            close(descriptor)
            throw .refused(path: path, reason: "the lock file is not a regular file owned by this user")
        }
        return descriptor
    }

    /// Checks that the item folder of the header's generation exists and is a folder of ours.
    static func checkItemsFolder(_ folder: String) throws(StorageError) {
        var status = stat()
        guard lstat(folder, &status) == 0 else {
            if errno == ENOENT { throw .corrupted(path: folder, reason: "the item folder the header names is missing") }
            throw DurableFile.failure("stat", folder)
        }
        do {
            try checkOwnedFolder(folder, status)
        } catch .refused(let path, let reason) {
            throw .corrupted(path: path, reason: reason)
        }
    }

    private static func checkOwnedFolder(_ folder: String, _ status: stat) throws(StorageError) {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw .refused(path: folder, reason: "a symbolic link, not a folder")
        default: throw .refused(path: folder, reason: "not a folder")
        }
        guard status.st_uid == geteuid() else {
            throw .refused(
                path: folder, reason: "owned by user \(status.st_uid), not by this process's user \(geteuid())")
        }
    }

    /// The names in `folder`, without `.` and `..`.
    static func entries(_ folder: String) throws(StorageError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .unavailable(reason: "cannot list \(folder): \(error.localizedDescription)")
        }
    }

    /// The generation an `items-<generation>` name stands for, or `nil` for any other name.
    static func generation(ofItemsFolder name: String) -> UInt32? {
        guard name.hasPrefix("items-") else { return nil }
        let digits = name.dropFirst(6)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt32(digits)
    }

    /// Whether `name` is a temporary file of GirdersSupport's `AtomicFile.write(_:to:replacing:syncingFolder:durable:)`.
    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    /// Removes the item folders of other generations (left by a re-key that crashed or completed) and the
    /// temporary files killed writers left. Safe only while holding the exclusive file lock: writers hold it from
    /// creating a temporary file until renaming it.
    static func removeLeftovers(in folder: String, keeping generation: UInt32) {
        let names = (try? entries(folder)) ?? []
        for name in names {
            if let other = self.generation(ofItemsFolder: name), other != generation {
                removeGeneration(folder + "/" + name)
            } else if isTemporary(name) {
                unlink(folder + "/" + name)
            }
        }
        let items = folder + "/items-\(generation)"
        for name in (try? entries(items)) ?? [] where isTemporary(name) {
            unlink(items + "/" + name)
        }
    }

    /// Removes an item folder of ours: unlinks its entries (never following a link) and the folder. A folder that
    /// is a link, not ours, or holds a subfolder is left alone.
    static func removeGeneration(_ folder: String) {
        var status = stat()
        guard lstat(folder, &status) == 0, (try? checkOwnedFolder(folder, status)) != nil else { return }
        for name in (try? entries(folder)) ?? [] {
            unlink(folder + "/" + name)
        }
        rmdir(folder)
    }
}
