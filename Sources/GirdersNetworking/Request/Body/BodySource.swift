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
