public import Foundation

/// A request body that is not held in memory: a file, or multipart form data whose files stay on disk.
///
/// Set with ``withBodyFile(_:contentType:)`` or ``withMultipartBody(_:)``. ``URLSessionTransport`` streams it from
/// disk (multipart is first encoded into a temporary file, copied in 1 MiB chunks), so a 200 MB upload does not
/// raise the process's memory by more than a few megabytes. Both kinds can be replayed, so retries are allowed.
public enum BodySource: Sendable, Equatable {
    /// The bytes of a file.
    case file(URL)
    /// Multipart form data.
    case multipart(MultipartFormData)
    /// Chunks produced while the request is sent (``BodyStream``).
    case stream(BodyStream)

    /// The number of bytes the body will have, or `nil` when a file cannot be read.
    public var length: Int64? {
        switch self {
        case .file(let url): FileIO.size(of: url)
        case .multipart(let form): form.encodedLength
        case .stream(let stream): stream.length
        }
    }

    /// A short description for logs and cURL: `@/path/file` or `multipart form data (3 parts)`.
    var summary: String {
        switch self {
        case .file(let url): "@\(url.path)"
        case .multipart(let form):
            "multipart form data (\(form.parts.count) parts, \(form.encodedLength.map(String.init) ?? "?") bytes)"
        case .stream(let stream): "a body stream (\(stream.length.map { "\($0) bytes" } ?? "length unknown"))"
        }
    }
}

extension BodySource {
    /// The file an upload streams from. A `.file` is used as it is, after checking it is a readable regular file;
    /// multipart form data is encoded into a temporary 0600 file in the system's temporary folder, which this type
    /// alone creates and ``UploadFile/release()`` deletes.
    func uploadFile() throws(ResponseError) -> UploadFile {
        switch self {
        case .stream:
            throw .invalidRequest(reason: "a body stream has no file to upload from")
        case .file(let url):
            guard FileIO.size(of: url) != nil else {
                throw .fileError(path: url.path, reason: "not a readable regular file")
            }
            return UploadFile(url: url, isTemporary: false)
        case .multipart(let form):
            let file = URL(fileURLWithPath: NSTemporaryDirectory())
                .appendingPathComponent("girders-\(UUID().uuidString).multipart")
            do {
                try form.write(to: file)
            } catch {
                FileIO.remove(file)
                throw error
            }
            return UploadFile(url: file, isTemporary: true)
        }
    }
}

/// The file an upload streams from (see ``BodySource/uploadFile()``); release it when the transfer ends, however
/// it ends.
struct UploadFile: Sendable {
    /// A ``BodyStream``'s chunks written to a temporary 0600 file, for a transport that cannot read a body as it is
    /// produced (``URLSessionTransport``); a length that the chunks do not match, or a producer that throws, fails
    /// (and leaves no file).
    static func collecting(
        _ chunks: any ChunkSource, length: Int64?, for url: URL
    ) async throws(ResponseError) -> UploadFile {
        let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "girders-\(UUID().uuidString).body")
        let writer = try FileIO.Writer(creating: file)
        var written: Int64 = 0
        do {
            while let chunk = try await chunks.next() {
                try writer.append(chunk, path: file)
                written += Int64(chunk.count)
                if let length, written > length { break }
            }
            if let length, written != length {
                throw ResponseError.invalidRequest(
                    reason:
                        "the body stream for \(url.absoluteString) gave \(written) bytes, not the \(length) announced")
            }
            try writer.finish(syncing: false, path: file)
        } catch {
            writer.abandon()
            FileIO.remove(file)
            throw error as? ResponseError
                ?? .transport(url: url, code: 0, reason: "the request's body stream failed: \(error)")
        }
        return UploadFile(url: file, isTemporary: true)
    }

    /// The file to stream.
    let url: URL
    /// Whether the file was made for this upload (multipart) and is deleted by ``release()``.
    let isTemporary: Bool

    /// Deletes the file if it was made for this upload.
    func release() {
        if isTemporary { FileIO.remove(url) }
    }
}
