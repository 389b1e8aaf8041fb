import Foundation
import GirdersSupport

/// POSIX file plumbing for streamed bodies and downloads: sizes, chunked reads, a 0600 writer, a durable rename.
///
/// It names and owns no file: `DownloadFile` owns a download's file from its temporary to its final place, and
/// ``BodySource`` owns the temporary file a multipart upload is encoded into.
enum FileIO {
    /// The size of a regular file, or `nil`.
    static func size(of url: URL) -> Int64? {
        var info = stat()
        guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Reads `url` in 1 MiB chunks.
    static func readChunks(of url: URL, into sink: (Data) throws(ResponseError) -> Void) throws(ResponseError) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw .fileError(path: url.path, reason: Self.lastError()) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileError(path: url.path, reason: Self.lastError())
            }
            if count == 0 { return }
            try sink(Data(buffer[0..<count]))
        }
    }

    /// Moves `source` over `destination` in one step and makes the rename durable; on failure `source` is deleted.
    static func replace(_ destination: URL, with source: URL) throws(ResponseError) {
        do {
            try AtomicFile.moveIntoPlace(source.path, over: destination.path, syncingFolder: false)
        } catch {
            throw .fileError(path: destination.path, reason: error.reason)
        }
        try? AtomicFile.synchronizeFolder(of: destination.path)
    }

    /// Opens `url` for reading (close-on-exec); `-1` with `errno` set on failure.
    static func openForReading(_ url: URL) -> Int32 {
        open(url.path, O_RDONLY | O_CLOEXEC)
    }

    /// Reads into `buffer` from `descriptor`, retrying after an interrupt: the count (0 at the end), or `-1`.
    static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Moves `descriptor`'s position to `offset` from the start; 0 on success.
    static func seek(_ descriptor: Int32, to offset: Int64) -> Int32 {
        lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) ? 0 : -1
    }

    static func closeFile(_ descriptor: Int32) {
        POSIXFile.closeDescriptor(descriptor)
    }

    /// Deletes `url` if it exists (never following a link).
    static func remove(_ url: URL) {
        unlink(url.path)
    }

    static func lastError() -> String { POSIXFile.lastError() }

    /// A new file, written sequentially; used by one transfer at a time, under its lock.
    final class Writer {
        private var descriptor: Int32
        private(set) var written: Int64 = 0

        /// Creates `url` with mode 0600; it must not exist.
        init(creating url: URL) throws(ResponseError) {
            descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw .fileError(path: url.path, reason: FileIO.lastError()) }
        }

        /// Opens `url` (made with mode 0600 when missing; never through a link) to append to it, or emptied first
        /// when `truncating`; ``written`` starts at its size.
        init(appendingTo url: URL, truncating: Bool) throws(ResponseError) {
            let flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC | (truncating ? O_TRUNC : 0)
            descriptor = open(url.path, flags, 0o600)
            guard descriptor >= 0 else { throw .fileError(path: url.path, reason: FileIO.lastError()) }
            written = FileIO.size(of: url) ?? 0
        }

        func append(_ data: Data, path: URL) throws(ResponseError) {
            let failure = data.withUnsafeBytes { POSIXFile.writeAll(descriptor, $0) }
            if let failure { throw .fileError(path: path.path, reason: POSIXFile.describe(failure)) }
            written += Int64(data.count)
        }

        /// Closes the file, first flushing it to the disk when `syncing`.
        func finish(syncing: Bool, path: URL) throws(ResponseError) {
            let synced = !syncing || POSIXFile.synchronize(descriptor)
            let reason = synced ? nil : FileIO.lastError()
            close(descriptor)
            descriptor = -1
            if let reason { throw .fileError(path: path.path, reason: reason) }
        }

        /// Closes without syncing, ignoring errors (the file is deleted by the caller).
        func abandon() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }

        deinit { abandon() }
    }
}
