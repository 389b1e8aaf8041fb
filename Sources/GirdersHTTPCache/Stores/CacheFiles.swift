import Foundation
import GirdersNetworking
import GirdersSupport

/// The file operations of ``FileCacheStore``, none of which follows a symbolic link: a link planted where an entry
/// or its folder belongs is never read through or written through.
enum CacheFiles {
    /// One entry file found by a scan.
    struct Found {
        let path: String
        let size: Int
        /// When it was last read or written (its modification time).
        let used: Double
    }

    /// The bytes of the regular file at `path` if it is at most `limit` bytes long; `nil` for anything else.
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size >= 0,
            status.st_size <= off_t(limit)
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                readBytes(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }  // shrank while read: another writer replaced it
            offset += count
        }
        return bytes
    }

    /// The size of the regular file at `path`, or `nil`.
    static func size(_ path: String) -> Int? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Marks the file at `path` as used now.
    static func touch(_ path: String) {
        _ = utimes(path, nil)
    }

    /// Makes `folder` a real folder (mode 0700), replacing a link or file there; `false` when it cannot.
    static func prepareFolder(_ folder: String) -> Bool {
        var status = stat()
        if lstat(folder, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR { return true }
            unlink(folder)
        }
        return mkdir(folder, 0o700) == 0 || isFolder(folder)
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` to a new temporary file beside `path` and renames it over `path` (GirdersSupport's
    /// `AtomicFile`): a reader, or a process killed at any moment, sees the old entry, the new one or none. Not
    /// durable (no `fsync`): a cache entry lost to a power loss is a miss, and one torn by it fails its checksum.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        guard prepareFolder(folder) else { return false }
        return (try? AtomicFile.write(bytes, to: path, durable: false)) == true
    }

    /// Every entry file in the store's `folder` (two levels: URL folders, then entries). Removes temporary files
    /// older than `abandonedAfter` seconds; leaves alone whatever does not look like the store's own.
    static func entries(in folder: String, abandonedAfter: Double) -> [Found] {
        let now = Date().timeIntervalSince1970
        var found: [Found] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where isStoreName(name) {
            let urlFolder = folder + "/" + name
            guard isFolder(urlFolder) else { continue }
            for file in (try? FileManager.default.contentsOfDirectory(atPath: urlFolder)) ?? [] {
                let path = urlFolder + "/" + file
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                let modified = modificationTime(path)
                if file.hasPrefix("."), file.hasSuffix(".tmp") {
                    if now - modified > abandonedAfter { unlink(path) }
                    continue
                }
                guard file.hasSuffix(".entry"), isStoreName(String(file.dropLast(6))) else { continue }
                guard (status.st_mode & S_IFMT) == S_IFREG else {
                    unlink(path)  // a link or folder where an entry belongs
                    continue
                }
                found.append(Found(path: path, size: Int(status.st_size), used: modified))
            }
        }
        return found
    }

    /// Whether `name` is 32 lower-case hexadecimal digits, as the store names its folders and entries.
    static func isStoreName(_ name: String) -> Bool {
        name.utf8.count == 32 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// `read(2)`, outside ``CacheFiles`` (whose own `read` would shadow it).
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// A file's modification time in seconds since 1970 (the file's own, not a link's target).
private func modificationTime(_ path: String) -> Double {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
}
