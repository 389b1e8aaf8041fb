public import Foundation
import GirdersSupport

/// A ``CookieJar`` that follows RFC 6265, and RFC 6265bis where the draft is stricter: the default on Linux.
///
/// - `Secure` cookies are stored from and sent over https only (and loopback hosts, as browsers do).
/// - Host-only cookies go to their host alone; a `Domain` attribute must name the host or a domain it is in, and
///   never a public suffix (`co.uk`, `github.io`): the list is libpsl's, the one Debian's libcurl uses, loaded at
///   run time. Without libpsl only the host itself is accepted as a domain (the cookie then stays host-only).
/// - `Path` matching; `Max-Age` (0 and negative included) before `Expires`; lifetimes capped at 400 days.
/// - `__Secure-` and `__Host-` prefixes; no cookie with a control character.
/// - Bounded: see ``CookieJarLimits``; the least recently used cookies are evicted first.
///
/// Session cookies (no expiry) live in memory only. With a `file`, persistent cookies are also written there
/// (mode 0600, replaced in one step after each response that changed them) and read back by the next jar on it;
/// without one nothing touches the disk.
///
/// ```swift
/// let jar = try RFC6265CookieJar(file: URL(filePath: "/var/lib/myapp/cookies.json"))
/// ```
public final class RFC6265CookieJar: CookieJar {
    /// The bounds the jar keeps.
    public let limits: CookieJarLimits
    /// Where persistent cookies are kept, or `nil` for a jar in memory only.
    public let file: URL?
    let state: LockedState<State>
    let writes = LockedState<Int>(0)
    private let clock: @Sendable () -> Date

    struct State {
        var cookies: [String: [Entry]] = [:]
        var count = 0
        var generation = 0
        var lastWriteFailure: ResponseError?
    }

    struct Entry {
        var cookie: Cookie
        var lastUsed: Date
    }

    /// An empty jar in memory.
    public convenience init(limits: CookieJarLimits = CookieJarLimits()) {
        self.init(limits: limits, file: nil, cookies: [], clock: { Date() })
    }

    /// A jar that keeps its persistent cookies in `file`, starting with the ones already there (expired ones and
    /// ones the limits refuse are dropped). The file is created, mode 0600, when the first persistent cookie
    /// arrives.
    /// - Throws: ``ResponseError/fileError(path:reason:)`` when `file` exists but is not a readable regular file
    ///   of at most `limits.cookies` × 16 KiB holding a cookie list this jar wrote.
    public convenience init(file: URL, limits: CookieJarLimits = CookieJarLimits()) throws(ResponseError) {
        let cookies = try CookieJarFile.read(file, maximumSize: max(limits.cookies, 1) * 16_384)
        self.init(limits: limits, file: file, cookies: cookies, clock: { Date() })
    }

    init(limits: CookieJarLimits, file: URL?, cookies: [Cookie], clock: @escaping @Sendable () -> Date) {
        self.limits = limits
        self.file = file
        self.clock = clock
        self.state = LockedState(State())
        let now = clock()
        state.withLock { state in
            for cookie in cookies where Self.isValid(stored: cookie, limits: limits, at: now) {
                Self.insert(cookie, into: &state, limits: limits, now: now)
            }
        }
    }

    /// Why the last write of ``file`` failed, or `nil` when it succeeded (or there was none). Storing never
    /// throws: the cookies stay in memory and the next change tries the file again.
    public var lastWriteFailure: ResponseError? { state.withLock { $0.lastWriteFailure } }

    /// Stores each field that RFC 6265's rules accept (section 5.3), replacing cookies of the same name, domain
    /// and path; a field that sets an expired cookie deletes its match. Fields the rules refuse change nothing.
    public func store(_ fields: [String], from url: URL) {
        guard !fields.isEmpty, let parser = SetCookieParser(url: url, now: clock(), limits: limits) else { return }
        var persistentChange = false
        state.withLock { state in
            for field in fields {
                guard case .success(let cookie) = parser.parse(field) else { continue }
                if !parser.isSecureChannel, !cookie.isSecure, Self.shadowsSecureCookie(cookie, in: state) { continue }
                let removed = Self.remove(matching: cookie, from: &state)
                if cookie.isExpired(at: parser.now) {
                    persistentChange = persistentChange || removed?.expires != nil
                    continue
                }
                var stored = cookie
                if let removed { stored.created = removed.created }
                Self.insert(stored, into: &state, limits: limits, now: parser.now)
                persistentChange = persistentChange || stored.expires != nil || removed?.expires != nil
            }
            if persistentChange { state.generation += 1 }
        }
        if persistentChange { save() }
    }

    /// The `Cookie` field for `url`: the cookies of ``cookies(for:)`` in order, as many as fit in
    /// ``CookieJarLimits/headerBytes``.
    public func cookieHeader(for url: URL) -> String? {
        let cookies = cookies(for: url)
        var header = ""
        for cookie in cookies {
            let added = (header.isEmpty ? 0 : 2) + cookie.pair.utf8.count
            if header.utf8.count + added > limits.headerBytes { continue }
            header += header.isEmpty ? cookie.pair : "; " + cookie.pair
        }
        return header.isEmpty ? nil : header
    }

    /// The cookies for `url` by section 5.4 (host, path, `Secure`, expiry), longer paths first, then older ones;
    /// marks them used (for eviction). None for a URL that is not http or https.
    public func cookies(for url: URL) -> [Cookie] {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = CookieDomain.canonicalHost(of: url) else { return [] }
        let path = CookiePath.requestPath(of: url)
        let secure = CookieDomain.isSecureChannel(url)
        let now = clock()
        // Every domain the host is in: the host itself and each parent (a host-only cookie is keyed by its host).
        var domains = [host]
        if !CookieDomain.isIPAddress(host) {
            var rest = Substring(host)
            while let dot = rest.firstIndex(of: ".") {
                rest = rest[rest.index(after: dot)...]
                domains.append(String(rest))
            }
        }
        var found: [Cookie] = state.withLock { state in
            var found: [Cookie] = []
            for domain in domains {
                guard var entries = state.cookies[domain] else { continue }
                for index in entries.indices
                where entries[index].cookie.applies(toHost: host, path: path, secure: secure, at: now) {
                    entries[index].lastUsed = now
                    found.append(entries[index].cookie)
                }
                state.cookies[domain] = entries
            }
            return found
        }
        // Section 5.4 step 2: longer paths first, then earlier creation.
        found.sort { ($0.path.utf8.count, $1.created) > ($1.path.utf8.count, $0.created) }
        return found
    }

    /// Forgets every cookie and rewrites ``file`` (if any) empty.
    public func removeAll() {
        state.withLock { state in
            state.cookies = [:]
            state.count = 0
            state.generation += 1
        }
        save()
    }

    /// Every stored cookie that has not expired, for inspection and tests.
    public var allCookies: [Cookie] {
        let now = clock()
        return state.withLock { state in state.cookies.values.flatMap { $0.map(\.cookie) } }
            .filter { !$0.isExpired(at: now) }
    }
}
