public import Foundation

/// A successful response with its decoded body.
///
/// ```swift
/// let response: Response<LoginReply> = try await client.executeRequest(request: request)
/// response.statusCode            // 200
/// response.bodyObject?.token     // decoded by the handler chain
/// response.headers["etag"]       // case-insensitive
/// ```
public struct Response<T> {
    /// The raw response this one was decoded from, kept whole (``HTTPResponse/fileURL`` included), so converting
    /// back loses nothing.
    public let raw: HTTPResponse
    /// The decoded body; `nil` for an empty body the request allowed (204, 205, `HEAD`, or an opted-in empty 200).
    public let bodyObject: T?

    /// A response from a raw response and its decoded body.
    public init(_ raw: HTTPResponse, bodyObject: T?) {
        self.raw = raw
        self.bodyObject = bodyObject
    }

    /// The HTTP status code of the final response, after redirects.
    public var statusCode: Int { raw.statusCode }
    /// The raw body bytes (GirdersSwift's `body`); empty for a download, whose body is in ``fileURL``.
    public var body: Data { raw.body }
    /// The header fields, with case-insensitive lookup.
    public var headers: HTTPHeaders { raw.headers }
    /// The URL the response came from, after redirects.
    public var url: URL? { raw.url }
    /// The request that produced the response.
    public var request: Request { raw.request }
    /// The file the body was written to, for downloads.
    public var fileURL: URL? { raw.fileURL }
}

extension Response: Sendable where T: Sendable {}
