public import Foundation

/// A `multipart/form-data` body: text fields, in-memory data and files that stay on disk until sent.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Girders", name: "title")
/// form.append(fileAt: videoURL, name: "video", contentType: "video/mp4")
/// let request = Request(MutableRequest(method: .post, url: uploadURL) |> withMultipartBody(form))
/// ```
///
/// Names and file names are escaped as browsers do (`"` as `%22`, CR as `%0D`, LF as `%0A`), so a hostile file
/// name cannot inject headers. A form with files is streamed from disk by ``URLSessionTransport``.
public struct MultipartFormData: Sendable, Equatable {
    /// Where a part's bytes come from.
    public enum Content: Sendable, Equatable {
        /// Bytes in memory.
        case data(Data)
        /// The bytes of a file, read when the request is sent.
        case file(URL)
    }

    /// One part of the form.
    public struct Part: Sendable, Equatable {
        /// The field name.
        public let name: String
        /// The file name, for file parts.
        public let filename: String?
        /// The part's `Content-Type`, if any.
        public let contentType: String?
        /// The part's bytes.
        public let content: Content
    }

    /// The boundary between parts (random unless given).
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// An empty form; the default boundary is random.
    public init(boundary: String = "girders.boundary.\(UUID().uuidString.lowercased())") {
        self.boundary = boundary
    }

    /// The request's `Content-Type`: `multipart/form-data; boundary=...`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Appends a text field.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Appends bytes, as a file part when `filename` is given.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String? = nil) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, content: .data(data)))
    }

    /// Appends a file that is read only when the request is sent; the file name defaults to the URL's last path
    /// component and the content type to `application/octet-stream`.
    public mutating func append(
        fileAt url: URL, name: String, filename: String? = nil, contentType: String = "application/octet-stream"
    ) {
        parts.append(
            Part(name: name, filename: filename ?? url.lastPathComponent, contentType: contentType, content: .file(url))
        )
    }

    /// Whether any part is a file on disk.
    public var hasFiles: Bool {
        parts.contains { if case .file = $0.content { true } else { false } }
    }

    /// The encoded size in bytes, or `nil` when a file cannot be read.
    public var encodedLength: Int64? {
        var total = Int64(closing.count)
        for part in parts {
            total += Int64(header(for: part).count + 2)
            switch part.content {
            case .data(let data): total += Int64(data.count)
            case .file(let url):
                guard let size = FileBody.size(of: url) else { return nil }
                total += size
            }
        }
        return total
    }

    /// The whole body in memory (files read in full): for small forms.
    public func encodedData() throws(ResponseError) -> Data {
        var data = Data()
        try encode { chunk throws(ResponseError) in data.append(chunk) }
        return data
    }

    /// Writes the body to `destination` (created 0600), copying files in 1 MiB chunks.
    func write(to destination: URL) throws(ResponseError) {
        let writer = try FileBody.Writer(creating: destination)
        do {
            try encode { chunk throws(ResponseError) in try writer.append(chunk, path: destination) }
            try writer.finish(syncing: false, path: destination)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Feeds the encoded body to `sink` in order.
    private func encode(into sink: (Data) throws(ResponseError) -> Void) throws(ResponseError) {
        let lineBreak = Data("\r\n".utf8)
        for part in parts {
            try sink(header(for: part))
            switch part.content {
            case .data(let data): try sink(data)
            case .file(let url): try FileBody.readChunks(of: url, into: sink)
            }
            try sink(lineBreak)
        }
        try sink(closing)
    }

    private var closing: Data { Data("--\(boundary)--\r\n".utf8) }

    private func header(for part: Part) -> Data {
        var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(part.name))\""
        if let filename = part.filename { text += "; filename=\"\(Self.escaped(filename))\"" }
        text += "\r\n"
        if let contentType = part.contentType { text += "Content-Type: \(Self.escaped(contentType))\r\n" }
        return Data((text + "\r\n").utf8)
    }

    /// The WHATWG escaping of names in `Content-Disposition`.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
