import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files written so that a write that returned survives a crash: a 0600 temporary file in the same folder,
/// `fsync`, `rename`, then `fsync` of the folder. Folders are created with mode 0700.
enum DurableFile {
    /// The file's bytes, or `nil` when it does not exist.
    static func read(_ path: String) throws(StorageError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        // Small files (every item of a secrets store) take one read(2); larger ones are sized with fstat.
        var result = [UInt8](unsafeUninitializedCapacity: 16 << 10) { _, count in count = 16 << 10 }
        var filled = 0
        while true {
            if filled == result.count {
                var status = stat()
                let size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
                let capacity = max(size + 1, result.count * 2)
                let previous = result
                result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                    _ = buffer.initialize(from: previous)
                    count = capacity
                }
            }
            let count = result.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            filled += count
            // A regular file returns less than asked only at its end.
            if count == 0 || filled < result.count {
                result.removeLast(result.count - filled)
                return result
            }
        }
    }

    /// Writes `bytes` to `url` durably with mode 0600. With `replacing: false` an existing file is an error
    /// (`EEXIST`), which makes first-use creation race-free.
    static func write(_ bytes: [UInt8], to path: String, replacing: Bool = true) throws(StorageError) {
        let (folder, name) = split(path)
        let temporary = folder + "/." + name + ".\(UInt64.random(in: 0...UInt64.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                Foundation.write(descriptor, $0.baseAddress?.advanced(by: written), bytes.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("write", temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let error = failure("fsync", temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        if replacing {
            guard rename(temporary, path) == 0 else {
                let error = failure("rename", path)
                unlink(temporary)
                throw error
            }
        } else {
            // link(2) fails with EEXIST instead of replacing, so two first uses cannot both win.
            let linked = link(temporary, path)
            let linkErrno = errno
            let linkError = failure("create", path)
            unlink(temporary)
            guard linked == 0 || linkErrno == EEXIST else { throw linkError }
        }
        try syncFolder(folder)
    }

    /// Removes a file durably; a missing file is not an error.
    static func remove(_ path: String) throws(StorageError) {
        if unlink(path) != 0 && errno != ENOENT { throw failure("remove", path) }
        try syncFolder(split(path).folder)
    }

    /// `fsync` of a folder, so renames and removals in it are durable.
    static func syncFolder(_ folder: String) throws(StorageError) {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open folder", folder) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("fsync folder", folder) }
    }

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
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    static func failure(_ operation: String, _ path: String) -> StorageError {
        .unavailable(reason: "\(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
