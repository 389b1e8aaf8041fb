import Foundation
import GirdersNetworking
import GirdersSupport

/// Whether a response may be stored (RFC 9111, section 3) by this private cache, and what is kept of it.
enum CacheStorability {
    /// The status codes stored without an explicit freshness: those a heuristic may apply to, but 206 (this cache
    /// does not combine partial responses).
    static let storableByDefault = CacheFreshness.heuristicallyCacheable.subtracting([206])

    /// Why the response to `request` is not stored, or `nil` when it may be.
    static func problem(method: String, requestHeaders: HTTPHeaders, statusCode: Int, headers: HTTPHeaders) -> String? {
        guard method == "GET" else { return "the method is \(method), not GET" }
        guard (200..<600).contains(statusCode), statusCode != 206, statusCode != 304 else {
            return "the status \(statusCode) is not stored"
        }
        let requestDirectives = CacheControl(requestHeaders)
        if requestDirectives.noStore { return "the request says no-store" }
        let directives = CacheControl(headers)
        if directives.noStore { return "the response says no-store" }
        if varyingNames(headers) == nil { return "the response says Vary: *" }
        let explicit = directives.maxAge != nil || headers.contains("Expires") || directives.isPublic
        guard explicit || storableByDefault.contains(statusCode) else {
            return "the status \(statusCode) needs an explicit freshness to be stored"
        }
        return nil
    }

    /// The lower-cased names `Vary` lists, or `nil` for `Vary: *` (never served from a cache: section 4.1).
    static func varyingNames(_ headers: HTTPHeaders) -> [String]? {
        var names: [String] = []
        for field in headers.values(for: "Vary") {
            for part in field.split(atScalar: ",") {
                let name = part.trimmingCharacters(in: .whitespaces).lowercased()
                if name == "*" { return nil }
                if !name.isEmpty, !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The request's values of the fields `names` lists, each field's values joined and its whitespace around
    /// commas normalised (section 4.1), "" for a field the request lacks.
    static func varying(_ names: [String], in requestHeaders: HTTPHeaders) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            values[name] = requestHeaders.values(for: name)
                .flatMap { $0.split(atScalar: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: ",")
        }
        return values
    }
}
