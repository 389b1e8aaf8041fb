import Foundation

/// The one owner of a download's file, from its temporary place to its final one.
///
/// A 2xx body asked for with ``TransferOptions/downloadDestination`` is written to a 0600 temporary file beside the
/// destination (so the final rename stays on one file system and `destination` never holds a partial body). The
/// file then leaves this type's hands in exactly one of three ways, each a member here:
/// - ``finish()``: the body is complete and durable; the transport returns it in ``HTTPResponse/fileURL``;
/// - ``discard()``: the transfer failed or was cancelled; the file is deleted;
/// - ``place(_:at:)`` / ``discard(_:)``: ``HTTPClient`` moves an accepted response's file onto the destination in one
///   step, or deletes the file of a response that failed validation.
///
/// Used by one transfer at a time (under that transfer's lock); not thread-safe on its own.
final class DownloadFile {
    /// The temporary file being written.
    let url: URL
    private let writer: FileIO.Writer
    private var isOpen = true

    /// Creates the temporary file beside `destination`.
    init(beside destination: URL) throws(ResponseError) {
        url = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString.prefix(8)).girders-part")
        writer = try FileIO.Writer(creating: url)
    }

    /// Appends a piece of the body.
    func append(_ data: Data) throws(ResponseError) {
        try writer.append(data, path: url)
    }

    /// Flushes the file to disk and closes it; on failure the file is deleted.
    func finish() throws(ResponseError) {
        isOpen = false
        do {
            try writer.finish(syncing: true, path: url)
        } catch {
            FileIO.remove(url)
            throw error
        }
    }

    /// Closes (if still open) and deletes the file: the transfer failed or was cancelled.
    func discard() {
        if isOpen { writer.abandon() }
        isOpen = false
        FileIO.remove(url)
    }

    /// Writes a whole in-memory body as a finished download file: for transports that cannot stream.
    static func write(_ body: Data, beside destination: URL) throws(ResponseError) -> URL {
        let file = try DownloadFile(beside: destination)
        do {
            try file.append(body)
            try file.finish()
        } catch {
            file.discard()
            throw error
        }
        return file.url
    }

    /// Moves `response`'s downloaded file onto `destination` in one step (replacing what is there) and returns the
    /// response pointing at it; a response without a file, or with no destination asked for, passes unchanged.
    static func place(_ response: HTTPResponse, at destination: URL?) throws(ResponseError) -> HTTPResponse {
        guard let destination, let file = response.fileURL, file != destination else { return response }
        try FileIO.replace(destination, with: file)
        return response.replacingBody(with: destination)
    }

    /// Deletes the downloaded file of a response that will not be delivered (it failed validation).
    static func discard(_ response: HTTPResponse) {
        if let file = response.fileURL { FileIO.remove(file) }
    }
}
