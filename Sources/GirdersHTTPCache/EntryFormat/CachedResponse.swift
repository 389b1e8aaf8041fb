public import Foundation
public import GirdersNetworking
import GirdersSupport

/// A response kept by ``CachingTransport``: its head and body, and the two moments RFC 9111 ages it by.
///
/// Stored without the fields that belong to one exchange only: `Set-Cookie` (the jar received it when it arrived;
/// a stored copy would set it again on every hit), `Transfer-Encoding` and the other hop-by-hop fields.
public struct CachedResponse: Sendable, Equatable {
    /// The status code.
    public let statusCode: Int
    /// The header fields as stored.
    public let headers: HTTPHeaders
    /// The body, decoded.
    public let body: Data
    /// The URL it answers (the request's, with its query).
    public let url: URL
    /// When the request that fetched it was sent (RFC 9111, section 4.2.3's `request_time`).
    public let requestTime: Date
    /// When it was received (`response_time`).
    public let responseTime: Date
    /// The request's values of the fields the response's `Vary` names (lower-cased names; "" for a field the
    /// request did not have): a later request matches only with the same values.
    public let varying: [String: String]

    /// A stored response.
    public init(
        statusCode: Int, headers: HTTPHeaders, body: Data, url: URL, requestTime: Date, responseTime: Date,
        varying: [String: String]
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varying = varying
    }

    /// The fields never stored (RFC 9111, section 3.1, and the cookie jar's own).
    static let unstoredFields: Set<String> = [
        "set-cookie", "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding",
        "upgrade", "proxy-authenticate", "proxy-authentication-info",
    ]

    /// `headers` without the fields a cache does not keep, nor those `Connection` names.
    static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        let named = Set(
            headers.values(for: "Connection").flatMap { $0.split(atScalar: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            })
        return HTTPHeaders(
            headers.fields.filter {
                let name = $0.name.lowercased()
                return !unstoredFields.contains(name) && !named.contains(name)
            })
    }
}

/// A stored response as JSON or a property list, for an ``HTTPCacheStore`` of an app's own (the header fields as
/// `[name, value]` pairs, in order, repeated names kept).
extension CachedResponse: Codable {
    private enum CodingKeys: String, CodingKey {
        case statusCode, headers, body, url, requestTime, responseTime, varying
    }

    /// Reads a response written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let pairs = try values.decode([[String]].self, forKey: .headers)
        guard pairs.allSatisfy({ $0.count == 2 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .headers, in: values, debugDescription: "a header field is not a [name, value] pair")
        }
        self.init(
            statusCode: try values.decode(Int.self, forKey: .statusCode),
            headers: HTTPHeaders(pairs.map { HTTPHeader(name: $0[0], value: $0[1]) }),
            body: try values.decode(Data.self, forKey: .body), url: try values.decode(URL.self, forKey: .url),
            requestTime: try values.decode(Date.self, forKey: .requestTime),
            responseTime: try values.decode(Date.self, forKey: .responseTime),
            varying: try values.decode([String: String].self, forKey: .varying))
    }

    /// Writes the response's fields.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(statusCode, forKey: .statusCode)
        try values.encode(headers.fields.map { [$0.name, $0.value] }, forKey: .headers)
        try values.encode(body, forKey: .body)
        try values.encode(url, forKey: .url)
        try values.encode(requestTime, forKey: .requestTime)
        try values.encode(responseTime, forKey: .responseTime)
        try values.encode(varying, forKey: .varying)
    }
}
