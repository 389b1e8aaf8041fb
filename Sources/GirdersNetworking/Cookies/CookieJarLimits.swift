public import Foundation

/// The bounds of an ``RFC6265CookieJar``: what a server may make it keep and send.
///
/// The defaults are RFC 6265bis's and the browsers' figures: 4,096 bytes of name and value a cookie, 50 cookies a
/// domain, 3,000 in all, 400 days at most; a `Cookie` field of at most 8,192 bytes, the line most servers accept
/// (nginx's and Apache's default buffers), so stored cookies alone never make a request unsendable.
public struct CookieJarLimits: Sendable, Hashable {
    /// Name and value of one cookie together, in bytes; a larger cookie is ignored.
    public var cookieBytes: Int
    /// A whole `Set-Cookie` field value, attributes included, in bytes; a larger field is ignored.
    public var fieldBytes: Int
    /// Cookies kept for one domain (or host); storing one more evicts the one used least recently.
    public var cookiesPerDomain: Int
    /// Cookies kept in all; storing one more evicts the one used least recently.
    public var cookies: Int
    /// The `Cookie` field the jar writes, in bytes: cookies that do not fit (the ones sent last by RFC 6265's
    /// order) are left out of that request.
    public var headerBytes: Int
    /// The longest time a cookie is kept, whatever its `Expires` or `Max-Age` says.
    public var maximumLifetime: TimeInterval

    /// Limits with the defaults above, each replaceable.
    public init(
        cookieBytes: Int = 4_096, fieldBytes: Int = 8_192, cookiesPerDomain: Int = 50, cookies: Int = 3_000,
        headerBytes: Int = 8_192, maximumLifetime: TimeInterval = 400 * 86_400
    ) {
        self.cookieBytes = cookieBytes
        self.fieldBytes = fieldBytes
        self.cookiesPerDomain = cookiesPerDomain
        self.cookies = cookies
        self.headerBytes = headerBytes
        self.maximumLifetime = maximumLifetime
    }
}
