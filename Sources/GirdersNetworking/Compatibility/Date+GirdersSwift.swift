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

    /// Parses RFC 822/1123 dates and the HTTP date forms, including GirdersSwift's twelve (with or without the
    /// weekday, the seconds and the zone; no zone is GMT); see ``HTTPDate/parse(_:checksWeekday:)``.
    ///
    /// - Parameter strict: when `true`, a weekday that does not match the date gives `nil`; GirdersSwift, and the
    ///   default, ignore it.
    public static func parseRFC822Timestamp(_ text: String, strict: Bool = false) -> Date? {
        HTTPDate.parse(text, checksWeekday: strict)
    }

    /// Parses RFC 3339 timestamps and GirdersSwift's other forms (no offset is UTC; `-0800` without the colon);
    /// see ``RFC3339Date/parse(_:acceptingGirdersSwiftForms:)``.
    public static func parseRFC3339Timestamp(_ text: String) -> Date? {
        RFC3339Date.parse(text, acceptingGirdersSwiftForms: true)
    }
}

/// GirdersSwift's `String` date parsers.
extension String {
    /// The RFC 822/1123 date this string holds, or `nil`; see `Date.parseRFC822Timestamp(_:strict:)`.
    public func parseRFC822Timestamp(strict: Bool = false) -> Date? {
        HTTPDate.parse(self, checksWeekday: strict)
    }

    /// The RFC 3339 timestamp this string holds, or `nil`; see `Date.parseRFC3339Timestamp(_:)`.
    public func parseRFC3339Timestamp() -> Date? {
        RFC3339Date.parse(self, acceptingGirdersSwiftForms: true)
    }
}
