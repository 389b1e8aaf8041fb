import Foundation
import GirdersNetworking

/// A request's body as ``HARReplayTransport`` compares it with a recorded one: read whole up to the recorder's
/// limit (past it, only its first bytes are kept), with the recorder's ``Redaction`` applied, and a multipart
/// form's boundary (random for each form unless the app names one) replaced by one placeholder on both sides.
struct HARBodyMatch {
    /// The bytes kept (redacted when whole), `nil` for no body.
    let bytes: Data?
    /// Whether the body went on past the limit.
    let truncated: Bool
    /// The body's whole length, when it was read.
    let length: Int64?

    /// Reads `request`'s body (the replay is its transport: a stream is read here, once).
    static func read(
        _ request: WireRequest, upTo limit: Int, redaction: Redaction
    ) async throws(ResponseError) -> HARBodyMatch {
        if case .none = request.body { return HARBodyMatch(bytes: nil, truncated: false, length: nil) }
        let reader = try request.openBody()
        defer { reader.close() }
        var bytes = Data()
        var length: Int64 = 0
        while let piece = try await reader.next() {
            length += Int64(piece.count)
            if bytes.count <= limit { bytes.append(piece.prefix(limit + 1 - bytes.count)) }
        }
        let truncated = bytes.count > limit
        let kept = truncated ? bytes.prefix(limit) : redaction.redacting(body: bytes)
        return HARBodyMatch(
            bytes: canonical(kept, contentType: request.headers["Content-Type"]), truncated: truncated, length: length)
    }

    /// Whether a recorded body is this one: both empty, the same bytes, the recorded first bytes of a body cut at
    /// the limit, or any body where the recorder could not read it (a stream).
    func matches(_ recorded: HARArchive.PostData?) -> Bool {
        guard let recorded else { return bytes?.isEmpty ?? true }
        if recorded._notRecorded == true { return true }
        guard let data = recorded.data else { return false }
        let expected = Self.canonical(data, contentType: recorded.mimeType)
        let actual = bytes ?? Data()
        if recorded._truncated == true { return truncated && actual.starts(with: expected) }
        return !truncated && actual == expected
    }

    /// `body` with a multipart boundary replaced by a placeholder, or as it is.
    static func canonical(_ body: Data, contentType: String?) -> Data {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/"),
            let parameter = contentType.split(separator: ";").first(where: {
                $0.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("boundary=")
            })
        else { return body }
        let boundary = parameter.trimmingCharacters(in: .whitespaces).dropFirst("boundary=".count)
            .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        guard !boundary.isEmpty else { return body }
        let needle = Data(boundary.utf8)
        let placeholder = Data("girders-har-boundary".utf8)
        var result = Data()
        var rest = body[...]
        while let found = rest.range(of: needle) {
            result.append(rest[rest.startIndex..<found.lowerBound])
            result.append(placeholder)
            rest = rest[found.upperBound...]
        }
        result.append(rest)
        return result
    }
}
