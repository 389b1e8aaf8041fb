import Foundation

extension TransferOptions {
    /// Reports `response`'s body as complete and, for a 2xx download, writes it to a `DownloadFile`: what a
    /// transport without streaming does.
    func deliver(_ response: HTTPResponse) throws(ResponseError) -> HTTPResponse {
        let size = Int64(response.body.count)
        progress?(TransferProgress(direction: .download, completedBytes: size, totalBytes: size))
        guard let destination = downloadDestination, (200..<300).contains(response.statusCode) else {
            return response
        }
        return response.replacingBody(with: try DownloadFile.write(response.body, beside: destination))
    }
}
