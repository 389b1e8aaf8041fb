public import Foundation
import GirdersSupport

/// Formats dates as RFC 3339 UTC timestamps with milliseconds, `2026-11-22T13:30:56.123Z`, without a formatter.
///
/// The conversion is pure arithmetic (days-from-civil), so it is thread-safe, allocation-light and about two
/// orders of magnitude faster than `ISO8601DateFormatter`. Dates before year 0 or after 9999 fall back to
/// `Date.ISO8601FormatStyle`. The same implementation as GirdersNetworking's `RFC3339Date` formatting.
public enum RFC3339Timestamp {
    /// Returns `date` as `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, truncated to the millisecond.
    public static func string(from date: Date) -> String {
        RFC3339Format.string(from: date, milliseconds: true)
    }

    /// Appends the timestamp's 24 ASCII bytes (more for the rare fallback) to `buffer`.
    static func append(_ date: Date, to buffer: inout [UInt8]) {
        RFC3339Format.append(date, milliseconds: true, to: &buffer)
    }
}
