public import Foundation

/// GirdersSwift's date helpers, backed by ``HTTPDate`` and ``RFC3339Date``.
extension Date {
    /// IMF-fixdate (the RFC 1123 form of RFC 822) in GMT: `Sun, 06 Nov 1994 08:49:37 GMT`.
    public func toRFC822String() -> String {
        HTTPDate.string(from: self)
    }

    /// RFC 3339 in UTC: `2026-11-22T13:30:56Z`, optionally with milliseconds.
    public func toRFC3339String(includingMilliseconds: Bool = false) -> String {
        RFC3339Date.string(from: self, includingMilliseconds: includingMilliseconds)
    }

    /// Parses RFC 822/1123 dates and the HTTP date forms; see ``HTTPDate/parse(_:)``.
    public static func parseRFC822Timestamp(_ text: String) -> Date? {
        HTTPDate.parse(text)
    }

    /// Parses RFC 3339 timestamps; see ``RFC3339Date/parse(_:)``.
    public static func parseRFC3339Timestamp(_ text: String) -> Date? {
        RFC3339Date.parse(text)
    }
}
