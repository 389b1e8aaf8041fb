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
    static func read(_ url: URL) throws(StorageError) -> [UInt8]? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure("open", url)
        }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var status = stat()
        if fstat(descriptor, &status) == 0 { result.reserveCapacity(Int(status.st_size)) }
        var buffer = [UInt8](repeating: 0, count: max(4096, min(Int(status.st_size) + 1, 1 << 20)))
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", url)
            }
            if count == 0 { return result }
            result += buffer[0..<count]
        }
    }

    /// Writes `bytes` to `url` durably with mode 0600. With `replacing: false` an existing file is an error
    /// (`EEXIST`), which makes first-use creation race-free.
    static func write(_ bytes: [UInt8], to url: URL, replacing: Bool = true) throws(StorageError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress?.advanced(by: written), bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("write", temporary)
                close(descriptor)
                unlink(temporary.path)
                throw error
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let error = failure("fsync", temporary)
            close(descriptor)
            unlink(temporary.path)
            throw error
        }
        close(descriptor)
        if replacing {
            guard rename(temporary.path, url.path) == 0 else {
                let error = failure("rename", url)
                unlink(temporary.path)
                throw error
            }
        } else {
            // link(2) fails with EEXIST instead of replacing, so two first uses cannot both win.
            let linked = link(temporary.path, url.path)
            let linkErrno = errno
            let linkError = failure("create", url)
            unlink(temporary.path)
            guard linked == 0 || linkErrno == EEXIST else { throw linkError }
        }
        try syncFolder(folder)
    }

    /// Removes a file durably; a missing file is not an error.
    static func remove(_ url: URL) throws(StorageError) {
        if unlink(url.path) != 0 && errno != ENOENT { throw failure("remove", url) }
        try syncFolder(url.deletingLastPathComponent())
    }

    /// `fsync` of a folder, so renames and removals in it are durable.
    static func syncFolder(_ folder: URL) throws(StorageError) {
        let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open folder", folder) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("fsync folder", folder) }
    }

    /// Creates `folder` with mode 0700 if needed (and its parents).
    static func makeFolder(_ folder: URL) throws(StorageError) {
        if mkdir(folder.path, 0o700) == 0 {
            try syncFolder(folder.deletingLastPathComponent())
            return
        }
        if errno == EEXIST { return }
        if errno == ENOENT {
            try makeFolder(folder.deletingLastPathComponent())
            try makeFolder(folder)
            return
        }
        throw failure("create folder", folder)
    }

    static func failure(_ operation: String, _ url: URL) -> StorageError {
        .unavailable(reason: "\(operation) \(url.path): \(String(cString: strerror(errno)))")
    }
}
