#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the POSIX calls the destinations use, with `EINTR` and partial writes handled.
enum POSIX {
    /// Writes every byte, retrying after interrupts and partial writes. Returns `errno` on failure.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
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
    static func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// The system's text for an error number.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Opens a file for appending, creating it with `mode` if needed. Returns the descriptor or `errno`.
    static func openForAppending(_ path: String, mode: mode_t = 0o644) -> Result<Int32, POSIXFailure> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode)
        return descriptor < 0 ? .failure(POSIXFailure(code: errno)) : .success(descriptor)
    }

    /// The size of an open file, or 0 when it cannot be read.
    static func size(of descriptor: Int32) -> Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// `true` when the descriptor is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    static func synchronize(_ descriptor: Int32) { _ = fsync(descriptor) }
    static func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
    static func removeFile(_ path: String) { _ = unlink(path) }
    static func renameFile(_ source: String, to destination: String) { _ = rename(source, destination) }
}

/// An `errno` value as a Swift error.
struct POSIXFailure: Error {
    let code: Int32
    var description: String { POSIX.describe(code) }
}
