import Foundation
import GirdersSupport

/// One `Set-Cookie` field value read by RFC 6265 section 5.2 and stored by section 5.3, with RFC 6265bis where it
/// is stricter: control characters, oversized cookies and attributes, `Secure` from an insecure origin, and the
/// `__Secure-` and `__Host-` prefixes each make the jar ignore the cookie.
struct SetCookieParser {
    /// The request the response answered.
    let url: URL
    let host: String
    let isSecureChannel: Bool
    let now: Date
    let limits: CookieJarLimits

    init?(url: URL, now: Date, limits: CookieJarLimits) {
        guard let host = CookieDomain.canonicalHost(of: url) else { return nil }
        self.url = url
        self.host = host
        self.isSecureChannel = CookieDomain.isSecureChannel(url)
        self.now = now
        self.limits = limits
    }

    /// The cookie `field` sets, or why the jar ignores it.
    func parse(_ field: String) -> Result<Cookie, Rejection> {
        let bytes = field.utf8
        guard bytes.count <= limits.fieldBytes else { return .failure(.tooLarge(limit: limits.fieldBytes)) }
        // 6265bis 5.6 step 1: a control character other than tab anywhere ignores the whole field.
        guard !bytes.contains(where: { HTTPCharacters.isFieldControl($0) }) else {
            return .failure(.controlCharacter)
        }
        // By scalars: `;` or `=` followed by a combining mark is one Character, but a server reads the bytes.
        var parts = field.split(atScalar: ";", maxSplits: 1, omittingEmptySubsequences: false)[...]
        let pair = parts.removeFirst()
        // Without `=` RFC 6265 ignores the field (6265bis would store a nameless cookie; the stricter rule wins).
        guard let equals = pair.firstIndex(ofScalar: "=") else { return .failure(.noName) }
        let name = trimmed(pair[..<equals])
        let value = trimmed(pair[pair.unicodeScalars.index(after: equals)...])
        guard !name.isEmpty else { return .failure(.noName) }
        guard name.utf8.count + value.utf8.count <= limits.cookieBytes else {
            return .failure(.tooLarge(limit: limits.cookieBytes))
        }
        var cookie = Cookie(
            name: String(name), value: String(value), domain: host, path: CookiePath.defaultPath(of: url), created: now)
        let attributes = parts.first.map(Self.attributes) ?? []
        var domainAttribute: String?
        var maxAge: Date?
        var expires: Date?
        for (attribute, attributeValue) in attributes {
            guard attributeValue.utf8.count <= 1_024 else { continue }  // 6265bis: ignore the attribute
            switch attribute.lowercased() {
            case "expires": expires = CookieDate.parse(attributeValue) ?? expires
            case "max-age": maxAge = maxAgeDate(attributeValue) ?? maxAge
            case "domain":
                var domain = attributeValue.lowercased()
                while domain.hasPrefix(".") { domain.removeFirst() }
                if domain.hasSuffix(".") { domain.removeLast() }
                domainAttribute = domain.isEmpty ? nil : domain
            case "path":
                cookie.path = attributeValue.hasPrefix("/") ? String(attributeValue) : CookiePath.defaultPath(of: url)
            case "secure": cookie.isSecure = true
            case "httponly": cookie.isHTTPOnly = true
            default: break  // SameSite, Partitioned and unknown attributes change nothing for a client
            }
        }
        // Max-Age wins over Expires, whatever their order (section 5.3 step 3); both are capped at 400 days.
        if let date = maxAge ?? expires { cookie.expires = min(date, now.addingTimeInterval(limits.maximumLifetime)) }
        if let domainAttribute {
            switch CookieDomain.scope(ofDomain: domainAttribute, forHost: host) {
            case .hostOnly?: cookie.isHostOnly = true
            case .domain?:
                cookie.domain = domainAttribute
                cookie.isHostOnly = false
            case nil: return .failure(.domain(domainAttribute))
            }
        }
        if cookie.isSecure && !isSecureChannel { return .failure(.secureOverInsecureChannel) }
        if let problem = prefixProblem(cookie, hadDomain: domainAttribute != nil) { return .failure(problem) }
        return .success(cookie)
    }

    /// Why a field sets no cookie.
    enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        case tooLarge(limit: Int)
        case controlCharacter
        case noName
        case domain(String)
        case secureOverInsecureChannel
        case prefix(String)

        var description: String {
            switch self {
            case .tooLarge(let limit): "larger than the \(limit)-byte limit"
            case .controlCharacter: "a control character"
            case .noName: "no cookie name"
            case .domain(let domain): "Domain=\(domain) is a public suffix or not this host's domain"
            case .secureOverInsecureChannel: "Secure, but the response did not come over https"
            case .prefix(let rule): rule
            }
        }
    }

    /// 6265bis 5.6 steps 20-21, by case-insensitive prefix: `__Secure-` needs `Secure` (and so a secure origin);
    /// `__Host-` needs `Secure`, no `Domain` attribute and `Path=/`.
    private func prefixProblem(_ cookie: Cookie, hadDomain: Bool) -> Rejection? {
        // By bytes, as a server reads the name: `__Host-` followed by a combining mark is still the prefix.
        let lowered = cookie.name.utf8.prefix(9).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        if lowered.starts(with: "__secure-".utf8), !cookie.isSecure {
            return .prefix("a __Secure- cookie without the Secure attribute")
        }
        if lowered.starts(with: "__host-".utf8), !cookie.isSecure || hadDomain || cookie.path != "/" {
            return .prefix("a __Host- cookie needs Secure, Path=/ and no Domain attribute")
        }
        return nil
    }

    /// `Max-Age`: an optional `-` and digits; zero or less expires the cookie now; any positive number, however many
    /// digits (past `Int.max` too), is a future expiry, capped at ``CookieJarLimits/maximumLifetime`` (6265bis 5.6.2).
    private func maxAgeDate(_ text: Substring) -> Date? {
        let negative = text.hasPrefix("-")
        let digits = negative ? text.dropFirst() : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard !negative, digits.utf8.contains(where: { $0 != 0x30 }) else { return Date(timeIntervalSince1970: 0) }
        let seconds = Int(digits).map(TimeInterval.init) ?? .greatestFiniteMagnitude
        return now.addingTimeInterval(min(seconds, limits.maximumLifetime))
    }

    /// The attributes after the first `;`: name and value, each trimmed; a name without `=` has an empty value.
    private static func attributes(_ text: Substring) -> [(Substring, Substring)] {
        text.split(atScalar: ";").map { attribute in
            guard let equals = attribute.firstIndex(ofScalar: "=") else { return (trimmed(attribute), "") }
            return (trimmed(attribute[..<equals]), trimmed(attribute[attribute.unicodeScalars.index(after: equals)...]))
        }
    }

    private func trimmed(_ text: Substring) -> Substring { Self.trimmed(text) }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
