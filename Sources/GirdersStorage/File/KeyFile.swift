import Foundation

/// A ``StorageKey/keyFile(_:)``: exactly 32 binary bytes in a regular file of mode 0600 (or stricter).
///
/// A key file may be a symbolic link (secret mounts such as Kubernetes' are links), but what it points to must be
/// a regular file, so a FIFO or a device cannot stall or flood the read.
enum KeyFile {
    /// The key in the file at `path`, creating it with fresh random bytes when missing and `creating` is set.
    /// - Throws: ``StorageError/keyFileMissing(path:)`` when it is missing and may not be created;
    ///   ``StorageError/invalidKey(reason:)`` when it is not exactly 32 bytes, not a regular file or readable by
    ///   group or others.
    static func load(_ path: String, creating: Bool) throws(StorageError) -> [UInt8] {
        if let bytes = try read(path) { return bytes }
        guard creating else { throw .keyFileMissing(path: path) }
        var fresh = Crypto.randomBytes(Crypto.keyLength)
        defer { Secret.wipe(&fresh) }
        // Another process may create it at the same moment; both then use the one that was linked first.
        try DurableFile.write(fresh, to: path, replacing: false)
        guard let stored = try read(path) else { throw .unavailable(reason: "\(path) vanished after it was created") }
        return stored
    }

    private static func read(_ path: String) throws(StorageError) -> [UInt8]? {
        var bytes: [UInt8]
        do {
            guard let read = try DurableFile.read(path, maximumSize: Crypto.keyLength, followingLinks: true) else {
                return nil
            }
            bytes = read
        } catch .corrupted(_, let reason) {
            throw .invalidKey(reason: "\(path): \(reason); a key file holds exactly 32 bytes")
        }
        guard bytes.count == Crypto.keyLength else {
            Secret.wipe(&bytes)
            throw .invalidKey(reason: "\(path) holds \(bytes.count) bytes, a key file holds exactly 32")
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
            Secret.wipe(&bytes)
            throw .invalidKey(
                reason: "\(path) is readable by others (mode \(String(status.st_mode & 0o777, radix: 8))); chmod 600 it"
            )
        }
        return bytes
    }
}
