public import Foundation
import GirdersSupport

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Where a client keeps the cookies servers set and finds the ones a request carries (``HTTPClient/cookieJar``):
/// one jar whatever transport and decorators are underneath, read by ``withSessionCookie(_:)`` too.
///
/// The client calls ``store(_:from:)`` with the `Set-Cookie` fields of each response (every hop of a redirect
/// included) on the caller's side, never on a thread that runs other transfers, and ``cookieHeader(for:)`` for a
/// request that has no `Cookie` field of its own (an explicit one wins).
///
/// Girders has two: ``RFC6265CookieJar`` (the rules of RFC 6265 and 6265bis, in memory or in a 0600 file the
/// app names; the default on Linux) and ``SystemCookieJar`` (an `HTTPCookieStorage`; the default on Apple
/// platforms, where the system's storage follows the same rules).
///
/// ```swift
/// let jar = try RFC6265CookieJar(file: supportFolder.appending(path: "cookies.json"))
/// let client = HTTPClient(cookieJar: jar)
/// ```
public protocol CookieJar: Sendable {
    /// Stores what the `Set-Cookie` field values `fields` of a response from `url` set (each value one cookie).
    func store(_ fields: [String], from url: URL)

    /// The value of the `Cookie` field for a request to `url`, or `nil` when no stored cookie applies.
    func cookieHeader(for url: URL) -> String?

    /// The stored cookies a request to `url` would carry, in the order they would be sent.
    func cookies(for url: URL) -> [Cookie]

    /// Forgets every cookie (and empties the jar's file, if it has one).
    func removeAll()
}

/// The process's default cookie jar.
public enum CookieJars {
    /// The jar a client uses unless given another (``HTTPClient/cookieJar``).
    ///
    /// On Apple platforms: `HTTPCookieStorage.shared` behind a ``SystemCookieJar``, shared with the app's other
    /// URLSession code. Elsewhere (FoundationNetworking's storage ignores `Secure`, `Path`, `Max-Age` and public
    /// suffixes, and writes a 0644 file named after the executable's folder): an in-memory ``RFC6265CookieJar``.
    public static let shared: any CookieJar = {
        #if canImport(FoundationNetworking)
        RFC6265CookieJar()
        #else
        SystemCookieJar(HTTPCookieStorage.shared)
        #endif
    }()

    /// The jar a `URLSessionConfiguration`'s cookie settings describe: `nil` when it accepts or sends no cookies,
    /// ``shared`` for `HTTPCookieStorage.shared`, else a ``SystemCookieJar`` over its storage. What to give a
    /// client whose transport has such a configuration: `HTTPClient(transport: t, cookieJar: CookieJars.jar(for: c))`.
    public static func jar(for configuration: URLSessionConfiguration) -> (any CookieJar)? {
        guard configuration.httpCookieAcceptPolicy != .never, configuration.httpShouldSetCookies,
            let storage = configuration.httpCookieStorage
        else { return nil }
        return storage === HTTPCookieStorage.shared ? shared : SystemCookieJar(storage)
    }
}

extension CookieJars {
    /// The `Cookie` field `jar` gives for `url`, checked like every other header field before it reaches the wire
    /// (a custom jar cannot inject a line).
    /// - Throws: ``ResponseError/invalidRequest(reason:)`` for a control character in it.
    static func requestField(for url: URL, from jar: (any CookieJar)?) throws(ResponseError) -> String? {
        guard let field = jar?.cookieHeader(for: url), !field.isEmpty else { return nil }
        guard !field.utf8.contains(where: { HTTPCharacters.isFieldControl($0) }) else {
            throw .invalidRequest(
                reason: "the cookie jar's Cookie field for \(url.host ?? "the host") holds a control character")
        }
        return field
    }
}
