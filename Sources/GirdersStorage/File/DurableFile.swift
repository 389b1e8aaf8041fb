import Foundation
import GirdersSupport

/// Files written so that a write that returned survives a crash: a 0600 temporary file in the same folder,
/// `fsync` (`F_FULLFSYNC` on Apple platforms, see `POSIXFile.synchronize`), `rename`, then `fsync` of the folder. Folders are created with mode 0700.
enum DurableFile {
    /// The bytes of the regular file at `path`, or `nil` when it does not exist.
    ///
    /// Never blocks and never reads more than `maximumSize` bytes: the file is opened without waiting (a FIFO
    /// cannot stall the read), must be a regular file of at most `maximumSize` bytes, and unless
    /// `followingLinks` it must not be a symbolic link.
    /// - Throws: ``StorageError/corrupted(path:reason:)`` for a link, a non-regular or oversized file;
    ///   ``StorageError/unavailable(reason:)`` for other file system errors.
    static func read(
        _ path: String, maximumSize: Int, followingLinks: Bool = false
    ) throws(StorageError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw .corrupted(path: path, reason: "a symbolic link, not a file") }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("fstat", path) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .corrupted(path: path, reason: "not a regular file") }
        guard status.st_size <= Int64(maximumSize) else {
            throw .corrupted(path: path, reason: "\(status.st_size) bytes, more than the \(maximumSize) allowed")
        }
        let size = Int(status.st_size)
        // Every byte up to `filled` is written by read(2) before `count` reports it; the rest is cut off below.
        var result = [UInt8](unsafeUninitializedCapacity: size) { _, count in count = size }
        var filled = 0
        while filled < size {
            let count = result.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress.map { $0 + filled }, size - filled)
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw failure("read", path)
            }
            if count == 0 { break }
            filled += count
        }
        result.removeLast(size - filled)
        return result
    }

    /// Writes `bytes` to `path` durably with mode 0600. With `replacing: false` an existing file is an error
    /// (`EEXIST`), which makes first-use creation race-free. With `syncingFolder: false` the caller syncs the
    /// folder itself (to tell a failure before the rename from one after it).
    /// - Returns: `false` when `replacing` is `false` and the file already existed (it is left as it was).
    @discardableResult
    static func write(
        _ bytes: [UInt8], to path: String, replacing: Bool = true, syncingFolder: Bool = true
    ) throws(StorageError) -> Bool {
        let written: Bool
        do {
            // The folder is synced here, not by AtomicFile, so that an injected failure reaches it.
            written = try AtomicFile.write(bytes, to: path, replacing: replacing, syncingFolder: false)
        } catch {
            throw .unavailable(reason: error.description)
        }
        if written, syncingFolder { try syncFolder(split(path).folder) }
        return written
    }

    /// Removes a file durably; a missing file is not an error.
    static func remove(_ path: String) throws(StorageError) {
        if unlink(path) != 0 && errno != ENOENT { throw failure("remove", path) }
        try syncFolder(split(path).folder)
    }

    /// `fsync` of a folder, so renames and removals in it are durable.
    static func syncFolder(_ folder: String) throws(StorageError) {
        if let fail = injectedFolderSyncFailure.value, fail(folder) {
            throw .unavailable(reason: "fsync folder \(folder): injected failure")
        }
        if let (operation, reason) = POSIXFile.synchronizeFolder(folder) {
            throw .unavailable(reason: "\(operation) \(folder): \(reason)")
        }
    }

    /// For tests only: folders for which this returns `true` fail their next `fsync` (real file systems
    /// rarely fail it on demand). `nil`, the default, costs one lock per folder sync, which is itself an fsync.
    static let injectedFolderSyncFailure = LockedState<(@Sendable (String) -> Bool)?>(nil)

    /// Creates `folder` with mode 0700 if needed (and its parents).
    static func makeFolder(_ folder: String) throws(StorageError) {
        if mkdir(folder, 0o700) == 0 {
            try syncFolder(split(folder).folder)
            return
        }
        if errno == EEXIST { return }
        if errno == ENOENT, split(folder).folder != folder {
            try makeFolder(split(folder).folder)
            try makeFolder(folder)
            return
        }
        throw failure("create folder", folder)
    }

    /// The folder and the last component of a path.
    static func split(_ path: String) -> (folder: String, name: String) {
        AtomicFile.split(path)
    }

    static func failure(_ operation: String, _ path: String) -> StorageError {
        .unavailable(reason: "\(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
