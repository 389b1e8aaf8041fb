import Foundation
import GirdersNetworking
import GirdersSupport

/// How old a stored response is and how long it stays fresh (RFC 9111, section 4.2), computed from its fields and
/// the moments it was requested and received.
struct CacheFreshness {
    /// The stored response's directives.
    let directives: CacheControl
    /// Its age now, in seconds (section 4.2.3).
    let age: Double
    /// How long it stays fresh, in seconds (section 4.2.1; heuristic by section 4.2.2 where allowed).
    let lifetime: Double

    /// The status codes a cache may give a heuristic freshness (RFC 9110, section 15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
    /// The fraction of the time since `Last-Modified` taken as heuristic freshness (section 4.2.2's "typical" 10%).
    static let heuristicFraction = 0.1
    /// The longest heuristic freshness: one day (a response that says nothing is not kept fresh for weeks).
    static let heuristicLimit = 86_400.0

    init(_ response: CachedResponse, now: Date) {
        let directives = CacheControl(response.headers)
        self.directives = directives
        age = Self.currentAge(response, now: now)
        lifetime = Self.lifetime(response, directives)
    }

    /// Whether it is within its freshness lifetime.
    var isFresh: Bool { age < lifetime }
    /// Seconds past its freshness lifetime (0 while fresh).
    var staleness: Double { max(0, age - lifetime) }

    /// `current_age` of section 4.2.3: the corrected initial age plus the time it spent here.
    static func currentAge(_ response: CachedResponse, now: Date) -> Double {
        let responseTime = response.responseTime.timeIntervalSince1970
        let requestTime = response.requestTime.timeIntervalSince1970
        let dateValue = response.headers["Date"].flatMap { HTTPDate.parse($0) }?.timeIntervalSince1970 ?? responseTime
        let apparentAge = max(0, responseTime - dateValue)
        let responseDelay = max(0, responseTime - requestTime)
        let correctedAgeValue = Double(ageValue(response.headers) ?? 0) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince1970 - responseTime)
        return correctedInitialAge + residentTime
    }

    /// The `Age` field (section 5.1): the first member of a list; an invalid value is ignored.
    static func ageValue(_ headers: HTTPHeaders) -> Int? {
        guard let field = headers["Age"] else { return nil }
        let first = field.split(atScalar: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return CacheControl.deltaSeconds(first.trimmingCharacters(in: .whitespaces))
    }

    /// `freshness_lifetime` of section 4.2.1: `max-age`, else `Expires` minus `Date`, else a heuristic (section
    /// 4.2.2) for a response with `Last-Modified` whose status allows one (or that says `public`), else 0.
    static func lifetime(_ response: CachedResponse, _ directives: CacheControl) -> Double {
        if let maxAge = directives.maxAge { return Double(maxAge) }
        let date = response.headers["Date"].flatMap { HTTPDate.parse($0) } ?? response.responseTime
        let expiresFields = response.headers.values(for: "Expires")
        if !expiresFields.isEmpty {
            // An invalid date ("0", "-1", a zone other than GMT, a two-digit year in IMF-fixdate) or two different
            // ones mean already expired (section 5.3): the field is read by RFC 9110's grammar, not leniently.
            guard Set(expiresFields).count == 1, let expires = HTTPDate.parseStrict(expiresFields[0]) else { return 0 }
            return max(0, expires.timeIntervalSince(date))
        }
        guard heuristicallyCacheable.contains(response.statusCode) || directives.isPublic,
            let modified = response.headers["Last-Modified"].flatMap({ HTTPDate.parse($0) })
        else { return 0 }
        return min(heuristicLimit, max(0, date.timeIntervalSince(modified)) * heuristicFraction)
    }
}
