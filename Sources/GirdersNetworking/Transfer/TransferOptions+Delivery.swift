import Foundation

// How a transport without streaming, and the client, finish a transfer: progress in one step, files moved into place.

extension TransferOptions {
    /// Reports `response`'s body as complete and, for a 2xx download, writes it to a temporary file beside the
    /// destination: what a transport without streaming does.
    func deliver(_ response: HTTPResponse) throws(ResponseError) -> HTTPResponse {
        let size = Int64(response.body.count)
        progress?(TransferProgress(direction: .download, completedBytes: size, totalBytes: size))
        guard let destination = downloadDestination, (200..<300).contains(response.statusCode) else {
            return response
        }
        let file = FileBody.temporaryFile(beside: destination)
        do {
            let writer = try FileBody.Writer(creating: file)
            try writer.append(response.body, path: file)
            try writer.finish(syncing: true, path: file)
        } catch {
            FileBody.remove(file)
            throw error
        }
        return response.replacingBody(with: file)
    }
}

extension TransferOptions {
    /// Moves a downloaded body from its temporary file to ``downloadDestination`` in one step (replacing what is
    /// there); other responses pass unchanged.
    func place(_ response: HTTPResponse) throws(ResponseError) -> HTTPResponse {
        guard let destination = downloadDestination, let file = response.fileURL, file != destination else {
            return response
        }
        try FileBody.replace(destination, with: file)
        return response.replacingBody(with: destination)
    }
}
