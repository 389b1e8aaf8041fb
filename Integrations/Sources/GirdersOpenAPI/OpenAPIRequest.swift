import Foundation
import GirdersNetworking
import HTTPTypes
import OpenAPIRuntime

/// Turns the generated client's request into a Girders ``Request``.
enum OpenAPIRequest {
    /// Fields Girders writes itself from the body: the length or chunked coding, and the type given with the body.
    private static let framing: Set<HTTPField.Name> = [.contentLength, .transferEncoding]

    /// `request` sent to `baseURL` joined with the request's path (its query included): every field line in order
    /// (repeated names kept), the body as a ``BodyStream`` (sent anew on every attempt when `body` can be iterated
    /// more than once). Fails with ``ResponseError/invalidRequest(reason:)`` for a method Girders does not send or a
    /// URL that does not join.
    static func lowered(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL
    ) throws(ResponseError) -> GirdersNetworking.Request {
        guard let method = GirdersNetworking.HTTPMethod(rawValue: request.method.rawValue) else {
            throw .invalidRequest(reason: "the method \(request.method.rawValue.debugDescription) is not supported")
        }
        let url = try joined(baseURL, request.path ?? "")
        var mutable = MutableRequest(method: method, url: url)
        var contentType: String?
        for field in request.headerFields where !framing.contains(field.name) {
            if field.name == .contentType, body != nil {
                contentType = contentType ?? field.value
                continue
            }
            mutable.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body {
            let length: Int64? =
                switch body.length {
                case .known(let bytes): bytes
                case .unknown: nil
                }
            let stream =
                body.iterationBehavior == .multiple
                ? BodyStream(length: length, replayable: { body.map { Data($0) } })
                : BodyStream(body.map { Data($0) }, length: length)
            mutable = mutable |> withBodyStream(stream, contentType: contentType ?? "application/octet-stream")
        }
        return Request(mutable)
    }

    /// `base` with `path` appended as it is: the server URL's own path kept, one slash between them.
    static func joined(_ base: URL, _ path: String) throws(ResponseError) -> URL {
        var prefix = base.absoluteString
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let suffix = path.isEmpty || path.hasPrefix("/") ? path : "/" + path
        guard let url = URL(string: prefix + suffix), url.scheme != nil else {
            throw .invalidRequest(reason: "cannot join the path \(path.debugDescription) to \(base.absoluteString)")
        }
        return url
    }
}
