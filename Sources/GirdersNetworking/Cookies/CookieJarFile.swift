import Foundation
import GirdersSupport

/// The file an ``RFC6265CookieJar`` keeps persistent cookies in: JSON (`{"version":1,"cookies":[...]}`), mode 0600,
/// replaced in one step (a 0600 temporary file in the same folder, `fsync`, `rename`, `fsync` of the folder).
enum CookieJarFile {
    private struct Contents: Codable {
        var version: Int
        var cookies: [Cookie]
    }

    /// The cookies in `url`, or none when it does not exist. Never blocks on a FIFO, never follows a link, never
    /// reads more than `maximumSize` bytes.
    static func read(_ url: URL, maximumSize: Int) throws(ResponseError) -> [Cookie] {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        if descriptor < 0 {
            if errno == ENOENT { return [] }
            throw .fileError(path: path, reason: "cannot open the cookie file: " + POSIXFile.lastError())
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .fileError(path: path, reason: "the cookie file is not a regular file")
        }
        guard status.st_size <= Int64(maximumSize) else {
            throw .fileError(
                path: path, reason: "the cookie file has \(status.st_size) bytes, more than \(maximumSize)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                Foundation.read(descriptor, $0.baseAddress.map { $0 + filled }, $0.count - filled)
            }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            filled += count
        }
        do {
            let contents = try JSONDecoder().decode(Contents.self, from: Data(bytes[0..<filled]))
            guard contents.version == 1 else {
                throw ResponseError.fileError(path: path, reason: "cookie file version \(contents.version), not 1")
            }
            return contents.cookies
        } catch let error as ResponseError {
            throw error
        } catch {
            throw .fileError(path: path, reason: "not a cookie file Girders wrote: \(error)")
        }
    }

    static func write(_ cookies: [Cookie], to url: URL) throws(ResponseError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(Contents(version: 1, cookies: cookies))
        } catch {
            throw .fileError(path: url.path, reason: "cannot encode the cookies: \(error)")
        }
        do {
            try AtomicFile.write(data, to: url.path)
        } catch {
            throw .fileError(path: error.path, reason: "\(error.operation): \(error.reason)")
        }
    }
}
