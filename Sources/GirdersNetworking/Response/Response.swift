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
    /// The status code.
    public let statusCode: Int
    /// The raw body bytes (GirdersSwift's `body`).
    public let body: Data
    /// The decoded body; `nil` for an empty body the request allowed (204, 205, `HEAD`, or an opted-in empty 200).
    public let bodyObject: T?
    /// The header fields, with case-insensitive lookup.
    public let headers: HTTPHeaders
    /// The URL the response came from, after redirects.
    public let url: URL?
    /// The request that produced the response.
    public let request: Request

    /// A response from a raw response and its decoded body.
    public init(_ raw: HTTPResponse, bodyObject: T?) {
        self.statusCode = raw.statusCode
        self.body = raw.body
        self.bodyObject = bodyObject
        self.headers = raw.headers
        self.url = raw.url
        self.request = raw.request
    }

    /// The raw response this one was decoded from.
    public var raw: HTTPResponse {
        HTTPResponse(statusCode: statusCode, headers: headers, body: body, url: url, request: request)
    }
}

extension Response: Sendable where T: Sendable {}
