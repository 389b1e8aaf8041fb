import Foundation

#if canImport(CGirdersCurl)
import CGirdersCurl
#endif

/// Hosts and domains by RFC 6265's rules: domain matching (section 5.1.3), which `Domain` attribute a host may
/// set (section 5.3, steps 5 and 6, with the public-suffix list), and which hosts count as a secure channel.
enum CookieDomain {
    /// Section 5.1.3: `host` is `domain`, or ends with `.domain` and is not an IP address.
    static func matches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        guard host.utf8.count > domain.utf8.count, host.hasSuffix("." + domain) else { return false }
        return !isIPAddress(host)
    }

    /// How a cookie from `host` that names `Domain=domain` (lowercase, without a leading dot) is stored:
    /// `.hostOnly` when the domain is the host itself and a public suffix (section 5.3 step 5), `.domain` when it
    /// is accepted, `nil` when the cookie must be ignored (another host's domain, or a public suffix).
    ///
    /// The public-suffix list is libpsl's (loaded at run time on Linux, see `CGirdersPublicSuffix.h`). Where it is
    /// not available (no libpsl, or another platform) no domain but the host itself is accepted: the cookie is
    /// then host-only, which can send it to fewer hosts than the server asked, never to more.
    static func scope(
        ofDomain domain: String, forHost host: String, list: any PublicSuffixSource = PublicSuffixList.system
    ) -> Scope? {
        guard matches(host: host, domain: domain) else { return nil }
        // An IP address has no domain to share a cookie with: `Domain=` naming the address itself is host-only, as
        // browsers keep it (a domain cookie for 127.0.0.1 would be compared by suffix with other hosts' names).
        if isIPAddress(host) { return .hostOnly }
        switch list.isPublicSuffix(domain) {
        case true?: return domain == host ? .hostOnly : nil
        case false?:
            if domain == host { return .domain }
            return list.acceptsCookieDomain(domain, forHost: host) == true ? .domain : nil
        case nil:
            return domain == host ? .hostOnly : nil
        }
    }

    enum Scope { case hostOnly, domain }

    /// Whether cookies marked `Secure` go to `url`: https, and loopback hosts over http (`localhost`,
    /// `*.localhost`, 127.0.0.0/8, `::1`), as RFC 6265bis and browsers treat them.
    static func isSecureChannel(_ url: URL) -> Bool {
        if url.scheme?.lowercased() == "https" { return true }
        guard let host = url.host?.lowercased() else { return false }
        return isLoopback(host)
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && isIPAddress(bare)
    }

    /// A dotted IPv4 address or an IPv6 address (with or without brackets).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.utf8.count <= 3 && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                    && (Int(part) ?? 256) <= 255
            }
    }

    /// The host of `url` as the jar compares it: lowercase, without a trailing dot or IPv6 brackets.
    static func canonicalHost(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasSuffix(".") { host.removeLast() }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : host
    }
}

/// A public-suffix list's answers, or `nil` answers where there is none (see
/// ``CookieDomain/scope(ofDomain:forHost:list:)``).
protocol PublicSuffixSource: Sendable {
    /// Why the list is not available, or `nil` when it is.
    var unavailableReason: String? { get }
    /// Whether `domain` is a public suffix (`com`, `co.uk`, `github.io`).
    func isPublicSuffix(_ domain: String) -> Bool?
    /// Whether `host` may set a cookie for `domain`.
    func acceptsCookieDomain(_ domain: String, forHost host: String) -> Bool?
}

/// The list cookies are judged by.
enum PublicSuffixList {
    /// libpsl's list where the Linux build loads it; no list on other platforms.
    static let system: any PublicSuffixSource = {
        #if canImport(CGirdersCurl)
        LibPSL()
        #else
        NoPublicSuffixList(reason: "the public-suffix list is read through libpsl, which only the Linux build loads")
        #endif
    }()

    /// Why the system's list is not available, or `nil` when it is.
    static var unavailableReason: String? { system.unavailableReason }
}

/// No list: every answer is `nil`, so only a host's own name is accepted as its cookies' domain.
struct NoPublicSuffixList: PublicSuffixSource {
    let reason: String
    var unavailableReason: String? { reason }
    func isPublicSuffix(_ domain: String) -> Bool? { nil }
    func acceptsCookieDomain(_ domain: String, forHost host: String) -> Bool? { nil }
}

#if canImport(CGirdersCurl)
/// libpsl, loaded at run time (`CGirdersPublicSuffix.h`); `nil` answers when it could not be loaded.
struct LibPSL: PublicSuffixSource {
    var unavailableReason: String? { girders_psl_load().map { String(cString: $0) } }

    func isPublicSuffix(_ domain: String) -> Bool? {
        let answer = girders_psl_is_public_suffix(domain)
        return answer < 0 ? nil : answer == 1
    }

    func acceptsCookieDomain(_ domain: String, forHost host: String) -> Bool? {
        let answer = girders_psl_cookie_domain_acceptable(host, domain)
        return answer < 0 ? nil : answer == 1
    }
}
#endif
