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
/// Names and file names are escaped as browsers do (`"` as `%22`, CR as `%0D`, LF as `%0A`) and a backslash is
/// doubled (as curl and Firefox's quoted strings do), so a hostile name cannot end the quoted string, inject a
/// parameter or a header. A boundary given by the caller must be 1 to 70 of RFC 2046's characters, and no part may
/// contain the delimiter (`CRLF--boundary`, or `--boundary` at its start): encoding such a form is
/// ``ResponseError/invalidRequest(reason:)`` naming the part, so content can never add a field. A form with files
/// is streamed from disk by ``URLSessionTransport``.
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
        /// The form field's name, escaped as browsers do when the part's header is written.
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
    /// The parts in the order they are sent; file parts are read from disk only when the body is written.
    public private(set) var parts: [Part] = []

    /// An empty form; the default boundary is random. A `boundary` outside RFC 2046 (1 to 70 of `A-Z a-z 0-9`
    /// and `'()+_,-./:=?` or space, not ending in a space) makes encoding fail with
    /// ``ResponseError/invalidRequest(reason:)``.
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
                guard let size = FileIO.size(of: url) else { return nil }
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
    public func write(to destination: URL) throws(ResponseError) {
        let writer = try FileIO.Writer(creating: destination)
        do {
            try encode { chunk throws(ResponseError) in try writer.append(chunk, path: destination) }
            try writer.finish(syncing: false, path: destination)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Feeds the encoded body to `sink` in order; fails before the first byte on an invalid boundary, and on the
    /// first part holding the delimiter.
    private func encode(into sink: (Data) throws(ResponseError) -> Void) throws(ResponseError) {
        if let problem = Self.boundaryProblem(boundary) { throw .invalidRequest(reason: problem) }
        let lineBreak = Data("\r\n".utf8)
        for part in parts {
            try sink(header(for: part))
            // The header ends with CRLF CRLF, so the scan starts as if after a line break.
            var scanner = DelimiterScanner(delimiter: Data("\r\n--\(boundary)".utf8))
            func checked(_ chunk: Data) throws(ResponseError) {
                guard !scanner.feed(chunk) else {
                    throw .invalidRequest(
                        reason: "the multipart part \"\(part.name)\" contains the boundary \"\(boundary)\"; "
                            + "choose another boundary (the default random one never collides)")
                }
                try sink(chunk)
            }
            switch part.content {
            case .data(let data): try checked(data)
            case .file(let url): try FileIO.readChunks(of: url, into: checked)
            }
            try sink(lineBreak)
        }
        try sink(closing)
    }

    /// Why `boundary` is not an RFC 2046 boundary, or `nil`.
    static func boundaryProblem(_ boundary: String) -> String? {
        let allowed = Set("'()+_,-./:=? ".utf8)
        let bytes = Array(boundary.utf8)
        let valid =
            (1...70).contains(bytes.count) && bytes.last != UInt8(ascii: " ")
            && bytes.allSatisfy {
                allowed.contains($0) || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                    || (0x61...0x7A).contains($0)
            }
        return valid
            ? nil
            : "the multipart boundary must be 1 to 70 of A-Z a-z 0-9 ' ( ) + _ , - . / : = ? and space, "
                + "not ending in a space (it has \(bytes.count) bytes)"
    }

    private var closing: Data { Data("--\(boundary)--\r\n".utf8) }

    private func header(for part: Part) -> Data {
        var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(part.name))\""
        if let filename = part.filename { text += "; filename=\"\(Self.escaped(filename))\"" }
        text += "\r\n"
        if let contentType = part.contentType { text += "Content-Type: \(Self.escaped(contentType))\r\n" }
        return Data((text + "\r\n").utf8)
    }

    /// The WHATWG escaping of names in `Content-Disposition` (`"` CR LF percent-encoded), with backslashes
    /// doubled so none can escape the closing quote, and NUL percent-encoded too (a server reading C strings would
    /// end the name there; found by the `multipart` fuzz target).
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case "\u{0}": result += "%00"
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
