import Foundation

/// How ``HTTPClient`` follows redirects, identically for every transport.
///
/// 301, 302, 303, 307 and 308 with a `Location` are followed (relative locations resolved). 303 turns into
/// `GET`, and so do 301 and 302 for a `POST`, as browsers do, without any body (in memory or streamed) or its
/// `Content-Type`; 307 and 308 keep the method and the body
/// (FoundationNetworking on Linux would drop the body). `Authorization`, `Proxy-Authorization` and `Cookie` are
/// removed when a redirect leaves the original request's scheme, host and port.
public struct RedirectPolicy: Sendable {
    /// The most redirects followed for one request; more fail with ``ResponseError/tooManyRedirects(url:limit:)``.
    public var maximumRedirects: Int

    /// Follow up to `maximumRedirects` redirects (10 by default).
    public static func follow(maximumRedirects: Int = 10) -> RedirectPolicy {
        RedirectPolicy(maximumRedirects: maximumRedirects)
    }

    /// Do not follow: a 3xx is returned to validation (and fails it unless its status is made acceptable).
    public static let doNotFollow = RedirectPolicy(maximumRedirects: 0)

    /// The request for the next hop, or `nil` when `response` is not a redirect to follow.
    func nextRequest(after response: HTTPResponse, original: Request) -> Request? {
        guard maximumRedirects > 0, [301, 302, 303, 307, 308].contains(response.statusCode),
            let location = response.headers["Location"],
            let resolved = URL(string: location, relativeTo: response.url ?? response.request.fullURL)?.absoluteURL,
            let target = Self.normalized(resolved)
        else { return nil }
        let previous = response.request
        var next = MutableRequest(previous)
        next.url = target  // the Location carries the whole query
        next.queryItems = []
        let becomesGET =
            response.statusCode == 303 && previous.method != .head
            || (response.statusCode == 301 || response.statusCode == 302) && previous.method == .post
        if becomesGET {
            next.method = .get
            next.body = nil
            next.bodySource = nil  // a streamed file or multipart body too: the GET carries no body of any kind
            for name in ["Content-Type", "Content-Length", "Content-Encoding"] { next.headers.remove(name: name) }
        }
        if !Self.sameOrigin(target, original.fullURL) {
            for name in ["Authorization", "Proxy-Authorization", "Cookie"] { next.headers.remove(name: name) }
        }
        return Request(next)
    }

    /// An http or https `url` with its scheme in lower case (`HTTP://` is http: RFC 3986, 3.1), so every transport
    /// gets the same URL (libcurl followed `HTTP://`, FoundationNetworking called it unsupported); `nil` for any
    /// other scheme.
    static func normalized(_ url: URL) -> URL? {
        guard let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()) else { return nil }
        guard scheme != scheme.lowercased() else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.scheme = scheme.lowercased()
        return components.url
    }

    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        func port(_ url: URL) -> Int? { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
        return lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && port(lhs) == port(rhs)
    }
}
