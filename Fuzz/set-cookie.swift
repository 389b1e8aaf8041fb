import Foundation
import GirdersSupport

/// libFuzzer entry: any bytes as `Set-Cookie` field values (one per line) from one of a few origins, as the cookie
/// jar reads them. Parsing never traps, and every cookie it accepts obeys the rules the jar relies on: a name, no
/// control character, within the size limit, a lowercase domain the origin's host is in, a path starting with `/`,
/// an expiry no later than the lifetime cap, `Secure` only from a secure origin, the prefixes' conditions. A joined
/// field splits into pieces that all came from it, and cookie dates give only real calendar dates.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSetCookie(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let origins = ["https://a.example.co.uk/x/y", "http://127.0.0.1:8080/", "http://example.com/p"]
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let limits = CookieJarLimits()
    guard let origin = URL(string: origins[size % origins.count]),
        let parser = SetCookieParser(url: origin, now: now, limits: limits)
    else { return 0 }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        guard case .success(let cookie) = parser.parse(String(line)) else { continue }
        let controls = { (value: String) in value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F } }
        if cookie.name.isEmpty || controls(cookie.name) || controls(cookie.value) || controls(cookie.path) {
            fatalError("accepted a nameless cookie or a control character: \(line.debugDescription)")
        }
        if cookie.size > limits.cookieBytes { fatalError("accepted \(cookie.size) bytes: \(line.debugDescription)") }
        if cookie.domain != cookie.domain.lowercased()
            || !CookieDomain.matches(host: parser.host, domain: cookie.domain)
        {
            fatalError("domain \(cookie.domain) for host \(parser.host): \(line.debugDescription)")
        }
        if !cookie.path.hasPrefix("/") { fatalError("path \(cookie.path.debugDescription)") }
        // Byte by byte: a `;` a combining mark follows is one Character, and would split the Cookie header.
        if cookie.value.utf8.contains(UInt8(ascii: ";"))
            || cookie.name.utf8.contains(where: { $0 == 0x3B || $0 == 0x3D })
        {
            fatalError("a cookie whose name or value holds ';' or '=' (in the name): \(line.debugDescription)")
        }
        if let expires = cookie.expires, expires > now.addingTimeInterval(limits.maximumLifetime) {
            fatalError("expires beyond the cap: \(line.debugDescription)")
        }
        if cookie.isSecure && !parser.isSecureChannel { fatalError("Secure from http: \(line.debugDescription)") }
        // By bytes, as a server compares the prefix (`hasPrefix` compares Characters).
        let lowered = cookie.name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        if lowered.starts(with: "__host-".utf8), !cookie.isSecure || !cookie.isHostOnly || cookie.path != "/" {
            fatalError("a __Host- cookie that breaks its rules: \(line.debugDescription)")
        }
        if lowered.starts(with: "__secure-".utf8), !cookie.isSecure { fatalError("__Secure- without Secure") }
    }
    for piece in SetCookieFields.split(text) where !text.contains(piece) {
        fatalError("a split piece that is not in the field: \(piece.debugDescription)")
    }
    if let date = CookieDate.parse(Substring(text)) {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        if year < 1601 || !(1...12).contains(month) || day > CivilCalendar.daysInMonth(year: year, month: month) {
            fatalError("an impossible date from \(text.debugDescription)")
        }
    }
    return 0
}
