public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

// Generator functions for bodies streamed from disk, and the last word on the transport's URLRequest.

/// Streams a file as the body with `contentType` (`application/octet-stream` by default); the file is read in
/// chunks when the request is sent, so its size does not matter.
public func withBodyFile(_ file: URL, contentType: String = "application/octet-stream") -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.body = nil
        request.bodySource = .file(file)
        request.headers["Content-Type"] = contentType
        return request
    }
}

/// Sets `form` as a `multipart/form-data` body. A form without files is encoded in memory at once; a form with
/// files stays a ``BodySource/multipart(_:)`` that ``URLSessionTransport`` streams from disk.
public func withMultipartBody(_ form: MultipartFormData) -> RequestTransform {
    { (request: consuming MutableRequest) in
        if form.hasFiles {
            request.body = nil
            request.bodySource = .multipart(form)
            request.headers["Content-Type"] = form.contentType
        } else {
            do throws(ResponseError) {
                request.setBody(try form.encodedData(), contentType: form.contentType)
            } catch {
                if case .invalidRequest(let reason) = error { request.fail(reason) } else { request.fail(error.reason) }
            }
        }
        return request
    }
}

/// Edits the `URLRequest` the transport builds, after everything else (DotDotDot's `editRequest`): for settings
/// `Request` does not model, such as `cachePolicy` or `allowsCellularAccess`. Transports other than
/// ``URLSessionTransport`` build no `URLRequest` and ignore it.
public func withURLRequestEdit(_ edit: @escaping @Sendable (inout URLRequest) -> Void) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.urlRequestEdits.append(URLRequestEdit(edit))
        return request
    }
}
