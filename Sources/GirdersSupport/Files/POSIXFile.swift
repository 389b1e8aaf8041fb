#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX file calls that GirdersLog, GirdersNetworking and GirdersStorage share, with `EINTR` and partial
/// writes handled, and one definition of "flushed to the disk" for every platform.
package enum POSIXFile {
    /// Writes every byte, retrying after interrupts and partial writes. Returns `errno` on failure.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var cursor = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, cursor, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            remaining -= written
            cursor += written
        }
        return nil
    }

    /// Writes a string's UTF-8 bytes.
    package static func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// The system's text for an error number.
    package static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The system's text for the current `errno`.
    package static func lastError() -> String { describe(errno) }

    /// Opens a file for appending, creating it with mode 0644 (read and write for its owner, read for others) if
    /// needed. Returns the descriptor or `errno`.
    package static func openForAppending(_ path: String) -> Result<Int32, POSIXFailure> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        return descriptor < 0 ? .failure(POSIXFailure(code: errno)) : .success(descriptor)
    }

    /// The size of an open file, or 0 when it cannot be read.
    package static func size(of descriptor: Int32) -> Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// `true` when the descriptor is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// Flushes a file's data to the disk itself, so a crash or power loss after this returns `true` keeps it.
    ///
    /// On Apple platforms `fsync` only hands the data to the drive, whose cache may still lose it; `F_FULLFSYNC`
    /// asks the drive to flush that cache too. Where it fails (some network and external file systems do not
    /// support it) `fsync` is the best there is. Linux's `fsync` already flushes the drive's cache.
    package static func synchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        while true {
            if fsync(descriptor) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Makes the renames and removals in `folder` durable (``synchronize(_:)`` of the folder). Returns the
    /// operation that failed and `errno`'s text, or `nil`.
    package static func synchronizeFolder(_ folder: String) -> (operation: String, reason: String)? {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return ("open folder", lastError()) }
        defer { close(descriptor) }
        return synchronize(descriptor) ? nil : ("fsync folder", lastError())
    }

    package static func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
    package static func removeFile(_ path: String) { _ = unlink(path) }
    package static func renameFile(_ source: String, to destination: String) { _ = rename(source, destination) }
}

/// An `errno` value as a Swift error.
package struct POSIXFailure: Error {
    package let code: Int32
    package var description: String { POSIXFile.describe(code) }
}
