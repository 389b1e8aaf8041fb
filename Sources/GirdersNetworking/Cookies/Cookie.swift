public import Foundation

/// One stored cookie, as RFC 6265 section 5.3 keeps it: what a ``CookieJar`` sends back, and what
/// ``CookieJar/cookies(for:)`` hands to code that reads cookies (``withSessionCookie(_:)`` among it).
///
/// A cookie is identified by its ``name``, ``domain`` and ``path``: storing another with the same three replaces
/// it (keeping the first one's ``created``).
public struct Cookie: Sendable, Hashable, Codable {
    /// The cookie's name; never empty.
    public var name: String
    /// The cookie's value, as the server sent it (quotes included).
    public var value: String
    /// The host (``isHostOnly``) or the domain (without a leading dot) the cookie is sent to; lowercase.
    public var domain: String
    /// `true`: sent to ``domain`` exactly; `false`: to ``domain`` and every host inside it.
    public var isHostOnly: Bool
    /// The path prefix the cookie is sent under: `/` or a path starting with `/`.
    public var path: String
    /// Sent only over https (and to loopback hosts).
    public var isSecure: Bool
    /// `HttpOnly`: a browser keeps it from scripts; a client sends it like any other.
    public var isHTTPOnly: Bool
    /// When the cookie expires, or `nil` for a session cookie (kept in memory only, never written to a file).
    public var expires: Date?
    /// When the first cookie of this name, domain and path was stored: older cookies come first among those with
    /// paths of equal length.
    public var created: Date

    /// A cookie as given; ``RFC6265CookieJar`` stores only what a `Set-Cookie` field may set.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        isSecure: Bool = false, isHTTPOnly: Bool = false, expires: Date? = nil, created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.expires = expires
        self.created = created
    }

    /// `name=value`, as the `Cookie` field carries it.
    public var pair: String { name + "=" + value }

    /// The size RFC 6265bis limits (name and value together).
    var size: Int { name.utf8.count + value.utf8.count }

    func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// Whether the jar sends this cookie to `host` at `path` over a channel that is (`secure`) or is not secure,
    /// at `now`: RFC 6265 section 5.4, step 1.
    func applies(toHost host: String, path requestPath: String, secure: Bool, at now: Date) -> Bool {
        if isExpired(at: now) || (isSecure && !secure) { return false }
        let hostMatches = isHostOnly ? host == domain : CookieDomain.matches(host: host, domain: domain)
        return hostMatches && CookiePath.matches(requestPath: requestPath, cookiePath: path)
    }

    func sameIdentity(as other: Cookie) -> Bool {
        name == other.name && domain == other.domain && path == other.path
    }
}
