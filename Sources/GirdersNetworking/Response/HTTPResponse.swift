public import Foundation
import GirdersSupport

/// A response as it came off the wire, before decoding: what transports return, handlers read and errors carry.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status code, 3xx included (a transport returns redirects; the client follows them).
    public let statusCode: Int
    /// The header fields, with case-insensitive lookup.
    public let headers: HTTPHeaders
    /// The body bytes (empty when there was none).
    public let body: Data
    /// The URL the response came from (after redirects).
    public let url: URL?
    /// The request that produced it.
    public let request: Request
    /// The file the body was written to instead of ``body``, for downloads.
    public let fileURL: URL?
    /// How a `CachingTransport` answered, or `nil` when the response came from the network alone.
    public let cacheUse: CacheUse?

    /// A raw response.
    public init(
        statusCode: Int, headers: HTTPHeaders, body: Data, url: URL?, request: Request, fileURL: URL? = nil,
        cacheUse: CacheUse? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.request = request
        self.fileURL = fileURL
        self.cacheUse = cacheUse
    }

    /// The same response with `body` as its body.
    func replacingBody(withData body: Data) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode, headers: headers, body: body, url: url, request: request, fileURL: nil,
            cacheUse: cacheUse)
    }

    /// The same response with its body in `file` instead of memory.
    func replacingBody(with file: URL) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode, headers: headers, body: Data(), url: url, request: request, fileURL: file,
            cacheUse: cacheUse)
    }

    /// The media type of `Content-Type` without parameters, lower-cased: `application/json`.
    public var mimeType: String? {
        guard let contentType = headers["Content-Type"] else { return nil }
        let type = contentType.split(atScalar: ";", maxSplits: 1).first.map(String.init) ?? contentType
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The `charset` parameter of `Content-Type`, if any, lower-cased.
    var charset: String? {
        guard let contentType = headers["Content-Type"] else { return nil }
        for parameter in contentType.split(atScalar: ";").dropFirst() {
            let pair = parameter.split(atScalar: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            }
        }
        return nil
    }

    /// The first `limit` characters of the body as text (invalid UTF-8 replaced), for error messages.
    public func bodyPrefix(_ limit: Int = 200) -> String {
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
