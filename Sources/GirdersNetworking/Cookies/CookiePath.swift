import Foundation

/// Cookie paths by RFC 6265 section 5.1.4: the default path of a request URL and path matching.
enum CookiePath {
    /// The default path of `url`: its path up to, not including, the last `/`; `/` when that leaves nothing.
    static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The path the jar matches cookies against: the URL's path as sent (percent-encoded), `/` when empty.
    static func requestPath(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        return path.isEmpty ? "/" : path
    }

    /// Section 5.1.4: the paths are equal, or `cookiePath` is a prefix of `requestPath` that ends with `/` or is
    /// followed by `/` in it.
    static func matches(requestPath: String, cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        if cookiePath.hasSuffix("/") { return true }
        return requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }
}
