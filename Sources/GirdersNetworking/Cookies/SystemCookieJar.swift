public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A ``CookieJar`` over an `HTTPCookieStorage`: the default on Apple platforms (over `.shared`), where the system's
/// storage follows RFC 6265 and shares cookies with the app's other URLSession code.
///
/// On Linux, FoundationNetworking's storage does not follow the rules (it sends `Secure` cookies over http,
/// accepts public suffixes, ignores `Path` and `Max-Age`, and `.shared` writes every cookie to a 0644 file): use
/// ``RFC6265CookieJar`` there, as ``CookieJars/shared`` does.
///
/// `@unchecked Sendable`: its one property is an `HTTPCookieStorage`, which locks internally and may be used from
/// any thread (swift-corelibs-foundation declares it `Sendable`; Apple's SDKs may not), so the jar compiles the
/// same on every platform. `SystemCookieJarTests` stores and reads from many tasks at once (under ThreadSanitizer
/// in `.ci/run`).
public struct SystemCookieJar: CookieJar, @unchecked Sendable {
    /// The storage the jar reads and writes.
    public let storage: HTTPCookieStorage

    /// A jar over `storage`.
    public init(_ storage: HTTPCookieStorage) {
        self.storage = storage
    }

    /// Parses each field with `HTTPCookie` and stores the cookies for `url`, by the storage's own rules.
    public func store(_ fields: [String], from url: URL) {
        var cookies: [HTTPCookie] = []
        for field in fields {
            cookies += HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": field], for: url)
        }
        if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: nil) }
    }

    /// The storage's cookies for `url`, as `HTTPCookie.requestHeaderFields(with:)` joins them.
    public func cookieHeader(for url: URL) -> String? {
        guard let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// The storage's cookies for `url`; their creation time is unknown (the epoch).
    public func cookies(for url: URL) -> [Cookie] {
        (storage.cookies(for: url) ?? []).map { cookie in
            let dotted = cookie.domain.hasPrefix(".")
            return Cookie(
                name: cookie.name, value: cookie.value,
                domain: dotted ? String(cookie.domain.dropFirst()) : cookie.domain,
                isHostOnly: !dotted, path: cookie.path, isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly,
                expires: cookie.expiresDate, created: Date(timeIntervalSince1970: 0))
        }
    }

    /// Removes every cookie from the storage.
    public func removeAll() {
        storage.removeCookies(since: .distantPast)
    }
}
