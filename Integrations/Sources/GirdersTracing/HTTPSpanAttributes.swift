import Foundation
import GirdersNetworking
import Tracing

/// OpenTelemetry's HTTP client span attributes (semantic conventions 1.26, stable HTTP).
enum HTTPSpanAttributes {
    /// Query parameters whose values are redacted in `url.full` (OpenTelemetry's default list).
    static let signatureParameters: Set<String> = ["AWSAccessKeyId", "Signature", "sig", "X-Goog-Signature"]

    /// The attributes known before sending.
    static func request(_ request: Request, attempt: Int) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["http.request.method"] = request.method.rawValue
        let url = request.fullURL
        attributes["url.full"] = fullURL(url)
        if let host = url.host { attributes["server.address"] = host }
        if let port = url.port ?? defaultPort(url.scheme) { attributes["server.port"] = port }
        if attempt > 1 { attributes["http.request.resend_count"] = attempt - 1 }
        return attributes
    }

    /// The status, or the error, on `span`; a status of 400 or more and every error mark the span as failed.
    static func finish(_ span: any Span, with result: Result<HTTPResponse, ResponseError>) {
        switch result {
        case .success(let response):
            span.attributes["http.response.status_code"] = response.statusCode
            if response.statusCode >= 400 { fail(span, type: String(response.statusCode)) }
        case .failure(let error):
            if let status = error.statusCode {
                span.attributes["http.response.status_code"] = status
                fail(span, type: String(status))
            } else {
                fail(span, type: error.kind.rawValue)
            }
        }
    }

    private static func fail(_ span: any Span, type: String) {
        span.attributes["error.type"] = type
        span.setStatus(SpanStatus(code: .error))
    }

    /// `url` without user name and password, signature parameters' values redacted.
    static func fullURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "" }
        components.user = nil
        components.password = nil
        if let items = components.queryItems, items.contains(where: { signatureParameters.contains($0.name) }) {
            components.queryItems = items.map {
                signatureParameters.contains($0.name) ? URLQueryItem(name: $0.name, value: "REDACTED") : $0
            }
        }
        return components.url?.absoluteString ?? ""
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
