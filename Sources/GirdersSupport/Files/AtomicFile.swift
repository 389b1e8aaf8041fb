package import Foundation

/// Replacing a file in one step, the one way every module does it (the secure store's items, the cookie file, a
/// finished download, a HAR archive): the bytes go to a new mode-0600 temporary file beside the destination, are
/// flushed to the disk (``POSIXFile/synchronize(_:)``), and the temporary is renamed over the destination, whose
/// folder is then flushed too. A reader sees the old file or the new one, never a part; a crash leaves at most a
/// hidden `.name.<random>.tmp` beside it.
package enum AtomicFile {
    /// A step that failed: the operation (`create`, `write`, `fsync`, `rename`, `fsync folder`), the path it
    /// failed on and the system's reason.
    package struct Failure: Error, CustomStringConvertible {
        package let operation: String
        package let path: String
        package let reason: String

        package var description: String { "\(operation) \(path): \(reason)" }

        init(_ operation: String, _ path: String, reason: String = POSIXFile.lastError()) {
            self.operation = operation
            self.path = path
            self.reason = reason
        }
    }

    /// A fresh temporary path beside `path`: `folder/.name.<random>.tmp`.
    package static func temporaryPath(beside path: String) -> String {
        let (folder, name) = split(path)
        return folder + "/." + name + ".\(UInt64.random(in: 0...UInt64.max)).tmp"
    }

    /// Writes `bytes` to `path` as described above. With `replacing: false` an existing file is kept and the call
    /// returns `false` (the temporary is linked into place, which fails where `rename` would replace: two first
    /// writers cannot both win). With `syncingFolder: false` the caller flushes the folder itself. With
    /// `durable: false` nothing is flushed, for files a power loss may take (a cache entry: a reader still sees
    /// the old file or the new one, never a part). `mode` is the new file's permissions before the umask (private
    /// by default; generated files others read ask for `0o666`, as a plain file creation does).
    @discardableResult
    package static func write(
        _ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool = true, syncingFolder: Bool = true,
        durable: Bool = true, mode: mode_t = 0o600
    ) throws(Failure) -> Bool {
        let temporary = temporaryPath(beside: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure("create", temporary) }
        if let code = POSIXFile.writeAll(descriptor, bytes) {
            close(descriptor)
            unlink(temporary)
            throw Failure("write", temporary, reason: POSIXFile.describe(code))
        }
        guard !durable || POSIXFile.synchronize(descriptor) else {
            let failure = Failure("fsync", temporary)
            close(descriptor)
            unlink(temporary)
            throw failure
        }
        close(descriptor)
        if replacing {
            try moveIntoPlace(temporary, over: path, syncingFolder: syncingFolder && durable)
            return true
        }
        let linked = link(temporary, path)
        let failure = Failure("create", path)
        let code = errno
        unlink(temporary)
        if linked != 0 {
            guard code == EEXIST else { throw failure }
            return false
        }
        if syncingFolder && durable { try synchronizeFolder(of: path) }
        return true
    }

    /// Writes `bytes` to `path` (see ``write(_:to:replacing:syncingFolder:durable:)``).
    @discardableResult
    package static func write(
        _ bytes: [UInt8], to path: String, replacing: Bool = true, syncingFolder: Bool = true, durable: Bool = true
    ) throws(Failure) -> Bool {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(Failure) in
                try write(buffer, to: path, replacing: replacing, syncingFolder: syncingFolder, durable: durable)
            }
        }.get()
    }

    /// Writes `data` to `path`, replacing it (`durable` and `mode` as in
    /// ``write(_:to:replacing:syncingFolder:durable:mode:)``).
    package static func write(
        _ data: Data, to path: String, durable: Bool = true, mode: mode_t = 0o600
    ) throws(Failure) {
        _ = try data.withUnsafeBytes { buffer in
            Result { () throws(Failure) in try write(buffer, to: path, durable: durable, mode: mode) }
        }.get()
    }

    /// Renames `temporary` (flushed by its writer) over `destination` and flushes the folder; on failure the
    /// temporary is deleted.
    package static func moveIntoPlace(
        _ temporary: String, over destination: String, syncingFolder: Bool = true
    ) throws(Failure) {
        guard rename(temporary, destination) == 0 else {
            let failure = Failure("rename", destination)
            unlink(temporary)
            throw failure
        }
        if syncingFolder { try synchronizeFolder(of: destination) }
    }

    /// Flushes the folder that holds `path`, so a rename or removal in it survives a crash.
    package static func synchronizeFolder(of path: String) throws(Failure) {
        let folder = split(path).folder
        if let (operation, reason) = POSIXFile.synchronizeFolder(folder) {
            throw Failure(operation, folder, reason: reason)
        }
    }

    /// The folder and the last component of a path, split at the last `/` scalar (also one a combining mark
    /// follows, which is part of a larger Character).
    package static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.unicodeScalars.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.unicodeScalars.index(after: slash)...]))
    }
}
