import Foundation
import GirdersNetworking
import HTTPTypes
import OpenAPIRuntime

/// Turns Girders' responses into the generated client's.
enum OpenAPIResponse {
    /// The status and every field line in order; a name HTTPTypes does not accept is left out (Girders' transports
    /// already refuse such heads).
    static func head(of response: GirdersNetworking.HTTPResponse) -> HTTPTypes.HTTPResponse {
        var fields = HTTPFields()
        for field in response.headers {
            guard let name = HTTPField.Name(field.name) else { continue }
            fields.append(HTTPField(name: name, value: field.value))
        }
        return HTTPTypes.HTTPResponse(status: .init(code: response.statusCode), headerFields: fields)
    }

    /// Whether a body follows the head: not for `HEAD`, `1xx`, `204` or `304` (RFC 9110, 6.4.1).
    static func hasBody(_ response: GirdersNetworking.HTTPResponse) -> Bool {
        let status = response.statusCode
        return response.request.method != .head && status != 204 && status != 304 && !(100..<200).contains(status)
    }

    /// The body's length when the head gives it and the body arrives as sent (no content coding to undo).
    static func length(of response: GirdersNetworking.HTTPResponse) -> HTTPBody.Length {
        guard response.headers["Content-Encoding"] == nil,
            let value = response.headers["Content-Length"], let bytes = Int64(value), bytes >= 0
        else { return .unknown }
        return .known(bytes)
    }
}
