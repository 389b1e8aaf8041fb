import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``URLRequestEdit``s applied while lowering, once, for every transport: the edits see a `URLRequest` holding the
/// lowered request, and what they changed is read back without losing what they did not touch.
extension WireRequest {
    /// The `URLRequest` an edit sees: the URL, method, every field (`URLRequest` joins repeated names with ", "),
    /// a body from memory and the exact timeout; URLSession's own cookie handling off (the transports add cookies).
    func urlRequest() -> URLRequest {
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = method
        urlRequest.httpBody = body.data
        urlRequest.timeoutInterval = timeout
        urlRequest.httpShouldHandleCookies = false
        for field in headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        return urlRequest
    }

    /// This request after `edits`, or why it cannot be sent.
    ///
    /// Nothing an edit did not touch changes: a field line whose name the edit left alone keeps its place, its
    /// spelling and its repeats; a name the edit set gets one line with the new value where its first line was; a
    /// name it removed goes; names it added follow, in order of name. The timeout and body change only if the edit
    /// changed them, and then exactly. The URL and method are checked again, and the fields as lowering checks
    /// them. Any other property an edit changed (`cachePolicy`, say) is kept for ``URLSessionTransport`` and named,
    /// so ``CurlTransport`` can refuse it rather than ignore it.
    func applying(_ edits: [URLRequestEdit]) throws(ResponseError) -> WireRequest {
        let before = urlRequest()
        var after = before
        for edit in edits { edit.apply(&after) }
        let newURL = after.url ?? url
        let newMethod = after.httpMethod ?? method
        if newURL != url || newMethod != method {
            try Self.checkTarget(url: newURL, method: newMethod, edited: true)
        }
        let newHeaders = Self.merged(headers, before: before, after: after)
        if let problem = HeaderValidation.problem(in: newHeaders) {
            throw .invalidRequest(reason: "after a URLRequest edit, " + problem)
        }
        var newBody = body
        if after.httpBody != before.httpBody { newBody = after.httpBody.map(Body.data) ?? .none }
        if newMethod == "GET", newBody.length != 0 {
            throw .invalidRequest(
                reason: "after a URLRequest edit, cannot send a body with GET \(newURL.absoluteString)")
        }
        let others = Self.otherChanges(before, after)
        return WireRequest(
            request: request, url: newURL, method: newMethod, headers: newHeaders, body: newBody,
            timeout: after.timeoutInterval != before.timeoutInterval ? after.timeoutInterval : timeout, limits: limits,
            tlsCredentials: tlsCredentials, otherEdits: others.isEmpty ? nil : (others, after))
    }

    /// `fields` with what the edit changed between `before` and `after` applied (see ``applying(_:)``).
    static func merged(_ fields: HTTPHeaders, before: URLRequest, after: URLRequest) -> HTTPHeaders {
        let old = lowercased(before.allHTTPHeaderFields ?? [:])
        let new = lowercased(after.allHTTPHeaderFields ?? [:])
        guard old.mapValues(\.value) != new.mapValues(\.value) else { return fields }
        var result: [HTTPHeader] = []
        var replaced = Set<String>()
        for field in fields {
            let key = field.name.lowercased()
            guard let now = new[key] else { continue }  // removed
            if now.value == old[key]?.value {
                result.append(field)  // untouched: the line as it was
            } else if replaced.insert(key).inserted {
                result.append(HTTPHeader(name: now.name, value: now.value))
            }
        }
        for (key, field) in new.sorted(by: { $0.key < $1.key }) where old[key] == nil {
            result.append(HTTPHeader(name: field.name, value: field.value))
        }
        return HTTPHeaders(result)
    }

    private static func lowercased(_ fields: [String: String]) -> [String: (name: String, value: String)] {
        var result: [String: (name: String, value: String)] = [:]
        for (name, value) in fields { result[name.lowercased()] = (name, value) }
        return result
    }

    /// The names of the properties, besides URL, method, fields, body and timeout, that differ.
    static func otherChanges(_ before: URLRequest, _ after: URLRequest) -> [String] {
        var names: [String] = []
        if after.cachePolicy != before.cachePolicy { names.append("cachePolicy") }
        if after.httpShouldHandleCookies != before.httpShouldHandleCookies { names.append("httpShouldHandleCookies") }
        if after.allowsCellularAccess != before.allowsCellularAccess { names.append("allowsCellularAccess") }
        if after.networkServiceType != before.networkServiceType { names.append("networkServiceType") }
        if after.mainDocumentURL != before.mainDocumentURL { names.append("mainDocumentURL") }
        if after.httpBodyStream != nil { names.append("httpBodyStream") }
        return names
    }
}
