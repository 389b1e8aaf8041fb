public import Foundation
import GirdersSupport

/// What a resumable download (``HTTP/download(_:to:resumable:progress:)``) keeps beside its destination while it is
/// unfinished: the bytes received so far in `.<name>.girders-resume`, and in `.<name>.girders-resume-info` the
/// validator they belong to (a strong `ETag`, or a `Last-Modified` at least a second older than the response's
/// `Date`), the full length and the URL. Both survive the process, so a download cut off by the network, a cancel
/// or the app being killed goes on from where it stopped, on the next call for the same destination (whatever its
/// URL now, when the validator still matches).
public enum ResumeData {
    /// The bytes a resumable download to `destination` has kept, or `nil` when there is nothing to resume.
    public static func bytesKept(for destination: URL) -> Int64? {
        guard Record.read(for: destination) != nil else { return nil }
        return FileIO.size(of: partURL(for: destination))
    }

    /// Deletes what a resumable download to `destination` kept: the next download starts from byte 0.
    public static func discard(for destination: URL) {
        FileIO.remove(partURL(for: destination))
        FileIO.remove(recordURL(for: destination))
    }

    /// `.<name>.girders-resume` beside `destination`.
    static func partURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).girders-resume")
    }

    /// `.<name>.girders-resume-info` beside `destination`.
    static func recordURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).girders-resume-info")
    }

    /// What the kept bytes are a prefix of.
    struct Record: Codable, Equatable {
        /// The `If-Range` value: a strong entity tag or an HTTP date.
        var validator: String
        /// Whether ``validator`` is an entity tag (else a date).
        var isEntityTag: Bool
        /// The full length, when the server said it.
        var total: Int64?
        /// The URL it came from (informational: a refreshed URL resumes when the validator matches).
        var url: String

        /// The most bytes a record file may have (anything larger is not one).
        static let maximumSize = 16 << 10

        /// The record of a `200` head, or `nil` when the response cannot be resumed: no strong validator, or a
        /// content coding (a range would count encoded bytes).
        init?(head: HTTPResponse) {
            if let coding = head.headers["Content-Encoding"], ResponseSink.isContentCoding(coding) { return nil }
            if let etag = head.headers["ETag"]?.trimmingCharacters(in: .whitespaces), etag.hasPrefix("\""),
                etag.hasSuffix("\""), etag.count >= 2
            {
                validator = etag
                isEntityTag = true
            } else if let modified = head.headers["Last-Modified"], let modifiedDate = HTTPDate.parse(modified),
                let date = head.headers["Date"].flatMap({ HTTPDate.parse($0) }),
                date.timeIntervalSince(modifiedDate) >= 1  // a strong date validator (RFC 9110, 8.8.2.2)
            {
                validator = modified
                isEntityTag = false
            } else {
                return nil
            }
            let length = head.headers["Content-Length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            total = length.flatMap { $0 >= 0 ? $0 : nil }
            url = head.url?.absoluteString ?? head.request.fullURL.absoluteString
        }

        /// The record kept for `destination`; a damaged one is deleted with the bytes it describes.
        static func read(for destination: URL) -> Record? {
            let url = recordURL(for: destination)
            guard let size = FileIO.size(of: url) else { return nil }
            guard size <= maximumSize, let data = try? Data(contentsOf: url),
                let record = try? JSONDecoder().decode(Record.self, from: data),
                record.validator.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F })
            else {
                discard(for: destination)
                return nil
            }
            return record
        }

        /// Writes the record for `destination` in one step.
        func write(for destination: URL) throws(ResponseError) {
            let path = recordURL(for: destination).path
            do {
                let data = (try? JSONEncoder().encode(self)) ?? Data()
                try AtomicFile.write(data, to: path)
            } catch {
                throw .fileError(path: path, reason: error.reason)
            }
        }
    }

    /// The first byte, last byte and full length of a `Content-Range: bytes a-b/n` value; `nil` for anything else
    /// (an unknown length `*` included: the end could not be checked).
    static func contentRange(_ value: String?) -> (first: Int64, last: Int64, total: Int64)? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = digits(bounds[0]), let last = digits(bounds[1]),
            let total = digits(parts[1]), first <= last, last < total
        else { return nil }
        return (first, last, total)
    }

    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int64(text)
    }
}
