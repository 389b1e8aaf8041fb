import Foundation

/// Step 3 of ``HTTPClient/perform(_:options:)``: one attempt through the transport, redirects, validation.
extension HTTPClient {
    /// Lowers `request` (``WireRequest``, once per hop), sends it through the ``transport`` into a
    /// ``ResponseSink``, follows redirects under ``redirects`` (the transport never does), validates the final
    /// response with ``validation`` (or the request's own status codes) and moves a download into place. A download
    /// whose response fails validation is deleted (``DownloadFile/discard(_:)``). What the transport measured of each
    /// hop goes to the monitors as attempt `attempt`'s.
    func followingRedirects(
        _ request: Request, attempt: Int, options: TransferOptions
    ) async throws(ResponseError) -> HTTPResponse {
        var current = request
        var followed = 0
        while true {
            if Task.isCancelled { throw .cancelled(url: current.fullURL) }
            let wire = try WireRequest(lowering: current, clientLimits: responseLimits)
            let destination: ResponseSink.Destination = options.downloadDestination.map { .file($0) } ?? .memory
            let sink = ResponseSink(
                wire, destination: destination, progress: options.progress, collectsMetrics: !monitors.isEmpty)
            let response: HTTPResponse
            do {
                defer { reportMetrics(of: sink, for: current, attempt: attempt) }  // failed or not
                response = try await transport.exchange(wire, in: sink)
            }
            guard let next = redirects.nextRequest(after: response, original: request) else {
                do {
                    try validation.validate(response, acceptingInstead: request.acceptableStatusCodes)
                } catch {
                    DownloadFile.discard(response)
                    throw error
                }
                return try DownloadFile.place(response, at: options.downloadDestination)
            }
            followed += 1
            if followed > redirects.maximumRedirects {
                throw .tooManyRedirects(url: request.fullURL, limit: redirects.maximumRedirects)
            }
            current = next
        }
    }
}
