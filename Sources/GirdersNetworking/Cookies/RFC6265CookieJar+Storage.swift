import Foundation
import GirdersSupport

/// The jar's bookkeeping: insertion with eviction, replacement, the 6265bis `Secure` rule, and the file.
extension RFC6265CookieJar {
    /// Adds `cookie` (its identity not stored yet), then evicts while a limit is exceeded: expired cookies first,
    /// then the least recently used of its domain (per-domain limit) or of the jar (total limit).
    static func insert(_ cookie: Cookie, into state: inout State, limits: CookieJarLimits, now: Date) {
        state.cookies[cookie.domain, default: []].append(Entry(cookie: cookie, lastUsed: now))
        state.count += 1
        if let entries = state.cookies[cookie.domain], entries.count > limits.cookiesPerDomain {
            var kept = entries.filter { !$0.cookie.isExpired(at: now) }
            while kept.count > max(limits.cookiesPerDomain, 0), let oldest = leastRecentlyUsed(kept) {
                kept.remove(at: oldest)
            }
            state.count -= entries.count - kept.count
            state.cookies[cookie.domain] = kept.isEmpty ? nil : kept
        }
        if state.count > limits.cookies {
            for (domain, entries) in state.cookies {
                let kept = entries.filter { !$0.cookie.isExpired(at: now) }
                state.count -= entries.count - kept.count
                state.cookies[domain] = kept.isEmpty ? nil : kept
            }
        }
        while state.count > max(limits.cookies, 0) {
            var victim: (domain: String, index: Int, used: Date)?
            for (domain, entries) in state.cookies {
                guard let index = leastRecentlyUsed(entries) else { continue }
                if victim == nil || entries[index].lastUsed < (victim?.used ?? now) {
                    victim = (domain, index, entries[index].lastUsed)
                }
            }
            guard let victim else { break }
            state.cookies[victim.domain]?.remove(at: victim.index)
            if state.cookies[victim.domain]?.isEmpty == true { state.cookies[victim.domain] = nil }
            state.count -= 1
        }
    }

    private static func leastRecentlyUsed(_ entries: [Entry]) -> Int? {
        entries.indices.min { entries[$0].lastUsed < entries[$1].lastUsed }
    }

    /// Removes the stored cookie with `cookie`'s name, domain and path, returning it.
    static func remove(matching cookie: Cookie, from state: inout State) -> Cookie? {
        guard let index = state.cookies[cookie.domain]?.firstIndex(where: { $0.cookie.sameIdentity(as: cookie) })
        else { return nil }
        let removed = state.cookies[cookie.domain]?.remove(at: index)
        if state.cookies[cookie.domain]?.isEmpty == true { state.cookies[cookie.domain] = nil }
        state.count -= 1
        return removed?.cookie
    }

    /// RFC 6265bis section 5.6 step 16 ("leave Secure cookies alone"): an insecure origin cannot set a cookie that
    /// would shadow a `Secure` one of the same name whose domain and path overlap it.
    static func shadowsSecureCookie(_ cookie: Cookie, in state: State) -> Bool {
        state.cookies.values.contains { entries in
            entries.contains { entry in
                let stored = entry.cookie
                return stored.isSecure && stored.name == cookie.name
                    && (CookieDomain.matches(host: stored.domain, domain: cookie.domain)
                        || CookieDomain.matches(host: cookie.domain, domain: stored.domain))
                    && CookiePath.matches(requestPath: cookie.path, cookiePath: stored.path)
            }
        }
    }

    /// Whether a cookie read from the jar's file is one the jar could have stored.
    static func isValid(stored cookie: Cookie, limits: CookieJarLimits, at now: Date) -> Bool {
        guard let expires = cookie.expires, expires > now, expires <= now.addingTimeInterval(limits.maximumLifetime)
        else { return false }
        let controls = { (text: String) in text.utf8.contains(where: { HTTPCharacters.isControl($0) }) }
        return !cookie.name.isEmpty && cookie.size <= limits.cookieBytes && !controls(cookie.name)
            && !controls(cookie.value) && !cookie.name.utf8.contains(UInt8(ascii: "="))
            && !cookie.name.utf8.contains(UInt8(ascii: ";")) && !cookie.value.utf8.contains(UInt8(ascii: ";"))
            && !cookie.domain.isEmpty && !controls(cookie.domain)
            && cookie.domain == cookie.domain.lowercased() && cookie.path.hasPrefix("/") && !controls(cookie.path)
    }

    /// Writes the persistent cookies to ``file`` when they changed since the last write; concurrent callers write
    /// one after the other, and a caller whose change an earlier write already carried writes nothing.
    func save() {
        guard let file else { return }
        writes.withLock { written in
            let (generation, cookies) = state.withLock { state in
                (state.generation, state.cookies.values.flatMap { $0.map(\.cookie) }.filter { $0.expires != nil })
            }
            guard generation > written else { return }
            let failure: ResponseError?
            do throws(ResponseError) {
                try CookieJarFile.write(cookies, to: file)
                failure = nil
                written = generation
            } catch {
                failure = error
            }
            state.withLock { $0.lastWriteFailure = failure }
        }
    }
}
