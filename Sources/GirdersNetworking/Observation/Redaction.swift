public import Foundation
import GirdersSupport

/// What logs and cURL descriptions hide: header names, query item names and JSON body keys (all compared without
/// case), each value replaced by `<redacted>`.
public struct Redaction: Sendable, Equatable {
    /// Header names whose values are hidden.
    public var headers: Set<String>
    /// Query item names whose values are hidden.
    public var queryItems: Set<String>
    /// JSON object keys whose values are hidden, at any depth of a JSON body.
    public var jsonKeys: Set<String>

    /// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`; nothing in queries or bodies.
    public static let standard = Redaction()

    /// A redaction; the defaults hide the credential headers.
    public init(
        headers: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"],
        queryItems: Set<String> = [], jsonKeys: Set<String> = []
    ) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryItems = Set(queryItems.map { $0.lowercased() })
        self.jsonKeys = Set(jsonKeys.map { $0.lowercased() })
    }

    /// What stands in for a hidden value.
    public static let placeholder = "<redacted>"

    /// Whether the values of the header field `name` are hidden.
    public func hidesHeader(_ name: String) -> Bool { headers.contains(name.lowercased()) }

    /// Whether the values of the query item `name` are hidden.
    public func hidesQueryItem(_ name: String) -> Bool { queryItems.contains(name.lowercased()) }

    /// `url` with the values of hidden query items replaced by ``placeholder``; the same URL when it has none.
    public func redacting(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let items = components.queryItems, items.contains(where: { hidesQueryItem($0.name) })
        else { return url }
        components.queryItems = items.map { item in
            hidesQueryItem(item.name) ? URLQueryItem(name: item.name, value: Self.placeholder) : item
        }
        return components.url ?? url
    }

    /// `body` with the values of hidden JSON keys replaced by ``placeholder`` (re-serialised with sorted keys)
    /// when it is JSON and some keys are hidden; otherwise the same bytes.
    public func redacting(body: Data) -> Data {
        guard !jsonKeys.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let redacted = try? JSONSerialization.data(
                withJSONObject: hide(object), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return body }
        return redacted
    }

    /// The request's full URL with hidden query values.
    func url(of request: Request) -> String {
        guard request.queryItems.contains(where: { queryItems.contains($0.name.lowercased()) }) else {
            return request.fullURL.absoluteString
        }
        let items = request.queryItems.map { item in
            queryItems.contains(item.name.lowercased()) ? URLQueryItem(name: item.name, value: Self.placeholder) : item
        }
        return (QueryEncoding.url(request.url, appending: items) ?? request.url).absoluteString
    }

    /// The body as text: JSON with hidden keys, other text as it is, binary as a byte count.
    func body(_ data: Data) -> String {
        String(data: redacting(body: data), encoding: .utf8) ?? "<\(data.count) bytes>"
    }

    private func hide(_ object: Any) -> Any {
        if let dictionary = object as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, value) in dictionary {
                result[key] = jsonKeys.contains(key.lowercased()) ? Self.placeholder : hide(value)
            }
            return result
        }
        if let array = object as? [Any] { return array.map(hide) }
        return object
    }
}

extension Request {
    /// A `curl` command line that sends this request, with the values ``Redaction`` names hidden; pass `nil` to
    /// see everything.
    public func cURLDescription(redacting redaction: Redaction? = .standard) -> String {
        let redaction = redaction ?? Redaction(headers: [], queryItems: [], jsonKeys: [])
        var parts = ["curl", "-X", method.rawValue]
        for field in headers {
            let value = redaction.hidesHeader(field.name) ? Redaction.placeholder : field.value
            parts += ["-H", Self.quoted("\(field.name): \(value)")]
        }
        if let body, !body.isEmpty { parts += ["--data-binary", Self.quoted(redaction.body(body))] }
        switch bodySource {
        case .file(let url): parts += ["--data-binary", Self.quoted("@" + url.path)]
        case .multipart(let form): parts += Self.curlFormArguments(form, redaction: redaction)
        case .stream: parts += ["--data-binary", Self.quoted("@-")]
        case nil: break
        }
        parts.append(Self.quoted(redaction.url(of: self)))
        return parts.joined(separator: " ")
    }

    /// `-F` arguments for a form: text fields as `name=value`, files as `name=@path;type=...;filename=...`.
    private static func curlFormArguments(_ form: MultipartFormData, redaction: Redaction) -> [String] {
        form.parts.flatMap { part -> [String] in
            var value: String
            switch part.content {
            case .file(let url): value = "@" + url.path
            case .data(let data) where part.filename == nil: value = redaction.body(data)
            case .data(let data): value = "<\(data.count) bytes>"
            }
            if let type = part.contentType { value += ";type=\(type)" }
            if let filename = part.filename { value += ";filename=\(filename)" }
            return ["-F", quoted("\(part.name)=\(value)")]
        }
    }

    /// A single-quoted shell word; every `'` is escaped, also one a combining mark follows (one Character, two
    /// scalars, and the shell reads bytes).
    static func quoted(_ text: String) -> String {
        "'" + text.replacingScalars("'", with: "'\\''") + "'"
    }
}
