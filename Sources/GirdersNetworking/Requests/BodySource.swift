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

    /// The number of bytes the body will have, or `nil` when a file cannot be read.
    public var length: Int64? {
        switch self {
        case .file(let url): FileIO.size(of: url)
        case .multipart(let form): form.encodedLength
        }
    }

    /// A short description for logs and cURL: `@/path/file` or `multipart form data (3 parts)`.
    var summary: String {
        switch self {
        case .file(let url): "@\(url.path)"
        case .multipart(let form):
            "multipart form data (\(form.parts.count) parts, \(form.encodedLength.map(String.init) ?? "?") bytes)"
        }
    }
}

extension BodySource {
    /// The file an upload streams from. A `.file` is used as it is, after checking it is a readable regular file;
    /// multipart form data is encoded into a temporary 0600 file in the system's temporary folder, which this type
    /// alone creates and ``UploadFile/release()`` deletes.
    func uploadFile() throws(ResponseError) -> UploadFile {
        switch self {
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
    /// The file to stream.
    let url: URL
    /// Whether the file was made for this upload (multipart) and is deleted by ``release()``.
    let isTemporary: Bool

    /// Deletes the file if it was made for this upload.
    func release() {
        if isTemporary { FileIO.remove(url) }
    }
}
