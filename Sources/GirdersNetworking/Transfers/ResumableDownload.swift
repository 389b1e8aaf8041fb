import Foundation

extension HTTP {
    /// The resumable download of ``download(_:to:resumable:progress:)``: the kept bytes and their validator,
    /// `Range` and `If-Range`, and every check that the rest is the rest of the same body.
    func resumableDownload(
        _ request: Request, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(ResponseError) -> HTTPResponse {
        var record = ResumeData.Record.read(for: destination)
        let part = ResumeData.partURL(for: destination)
        var kept = record.flatMap { _ in FileIO.size(of: part) } ?? 0
        if record == nil || kept == 0 { ResumeData.discard(for: destination) }
        let limit = (request.responseLimits ?? (self as? HTTPClient)?.responseLimits ?? .standard).downloadBytes
        while true {
            var asked = MutableRequest(request)
            asked.headers["Accept-Encoding"] = "identity"
            if let record, kept > 0 {
                asked.headers["Range"] = "bytes=\(kept)-"
                asked.headers["If-Range"] = record.validator
            }
            let streamed: StreamedResponse
            do {
                // Both arguments: the protocol's requirement (the client's streaming), not the extension's default.
                streamed = try await stream(Request(asked), progress: nil)
            } catch {
                // 416: the kept bytes are no prefix the server knows (a shorter resource now): start over, once.
                guard kept > 0, error.response?.statusCode == 416 else { throw error }
                ResumeData.discard(for: destination)
                (record, kept) = (nil, 0)
                continue
            }
            let head = streamed.head
            let resuming = head.statusCode == 206
            if resuming {
                guard let record, kept > 0, Self.isTheRest(head, of: record, from: kept) else {
                    // Not the range asked for, or another version: nothing kept can be trusted.
                    ResumeData.discard(for: destination)
                    (record, kept) = (nil, 0)
                    continue
                }
            } else {
                record = ResumeData.Record(head: head)
                kept = 0
                if let record {
                    try record.write(for: destination)
                } else {
                    FileIO.remove(ResumeData.recordURL(for: destination))
                }
            }
            let writer = try FileIO.Writer(appendingTo: part, truncating: !resuming)
            // The whole file's length: a 206's Content-Range says it; a 200's Content-Length (when it had one).
            let total =
                resuming
                ? ResumeData.contentRange(head.headers["Content-Range"])?.total
                : record?.total ?? head.headers["Content-Length"].flatMap { Int64($0) }
            do {
                for try await chunk in streamed.body {
                    if let limit, writer.written + Int64(chunk.count) > limit {
                        throw ResponseError.limitExceeded(url: request.fullURL, limit: .downloadBytes, maximum: limit)
                    }
                    try writer.append(chunk, path: part)
                    progress?(TransferProgress(direction: .download, completedBytes: writer.written, totalBytes: total))
                }
                try writer.finish(syncing: true, path: part)
            } catch {
                writer.abandon()
                // Kept for the next call when it can be resumed; otherwise nothing is left behind.
                if record == nil || (error as? ResponseError).map(Self.endsResumability) == true {
                    ResumeData.discard(for: destination)
                }
                throw Self.responseError(error, url: request.fullURL)
            }
            if let total, writer.written != total {
                ResumeData.discard(for: destination)
                throw .interrupted(
                    url: request.fullURL, receivedBytes: writer.written, expectedBytes: total,
                    reason: "the file has \(writer.written) bytes where the server announced \(total)")
            }
            try FileIO.replace(destination, with: part)
            FileIO.remove(ResumeData.recordURL(for: destination))
            return head.replacingBody(with: destination)
        }
    }

    /// Whether a `206` is exactly the rest of `record`'s body from byte `kept`.
    static func isTheRest(_ head: HTTPResponse, of record: ResumeData.Record, from kept: Int64) -> Bool {
        guard let range = ResumeData.contentRange(head.headers["Content-Range"]), range.first == kept,
            range.last == range.total - 1, record.total.map({ $0 == range.total }) ?? true
        else { return false }
        if record.isEntityTag, let etag = head.headers["ETag"],
            etag.trimmingCharacters(in: .whitespaces) != record.validator
        {
            return false
        }
        return true
    }

    /// Whether `error` means the kept bytes cannot be used again (a limit; not a cut or a cancel).
    static func endsResumability(_ error: ResponseError) -> Bool {
        if case .limitExceeded = error { return true }
        return false
    }

    static func responseError(_ error: any Error, url: URL) -> ResponseError {
        if let error = error as? ResponseError { return error }
        if error is CancellationError { return .cancelled(url: url) }
        return .transport(url: url, code: 0, reason: "\(error)")
    }
}
