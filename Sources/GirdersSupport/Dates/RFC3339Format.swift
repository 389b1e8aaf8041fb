package import Foundation

/// RFC 3339 timestamps in UTC without a formatter, the one implementation GirdersLog's record timestamps and
/// GirdersNetworking's dates share: `2026-11-22T13:30:56Z`, or with milliseconds `2026-11-22T13:30:56.123Z`.
///
/// Pure arithmetic (``CivilCalendar``), so it is thread-safe, allocation-light and about two orders of magnitude
/// faster than `ISO8601DateFormatter`. The millisecond is truncated, never rounded up. Dates before year 0 or after
/// 9999 (and non-finite ones) fall back to `Date.ISO8601FormatStyle`.
package enum RFC3339Format {
    /// `date` as a timestamp.
    package static func string(from date: Date, milliseconds: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(date, milliseconds: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the timestamp's ASCII bytes (20, or 24 with milliseconds; more for the rare fallback) to `buffer`.
    package static func append(_ date: Date, milliseconds: Bool, to buffer: inout [UInt8]) {
        // Rounding to the microsecond first absorbs the binary error of `Date`'s reference-date offset, so a date
        // made from an exact millisecond keeps it.
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard microseconds.isFinite, abs(microseconds) < 1e18 else {
            return appendFallback(date, milliseconds: milliseconds, to: &buffer)
        }
        let (totalMilliseconds, _) = floorDivision(Int64(microseconds), 1000)
        let (days, millisecondOfDay) = floorDivision(totalMilliseconds, 86_400_000)
        let (year, month, day) = CivilCalendar.civil(fromDays: Int(days))
        guard (0...9999).contains(year) else { return appendFallback(date, milliseconds: milliseconds, to: &buffer) }
        let secondOfDay = Int(millisecondOfDay / 1000)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { output in
            var index = 0
            func put(_ value: Int, width: Int, then separator: UInt8) {
                var remaining = value
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    output[position] = UInt8(truncatingIfNeeded: 0x30 + remaining % 10)
                    remaining /= 10
                }
                output[index + width] = separator
                index += width + 1
            }
            put(year, width: 4, then: UInt8(ascii: "-"))
            put(month, width: 2, then: UInt8(ascii: "-"))
            put(day, width: 2, then: UInt8(ascii: "T"))
            put(secondOfDay / 3600, width: 2, then: UInt8(ascii: ":"))
            put(secondOfDay / 60 % 60, width: 2, then: UInt8(ascii: ":"))
            if milliseconds {
                put(secondOfDay % 60, width: 2, then: UInt8(ascii: "."))
                put(Int(millisecondOfDay % 1000), width: 3, then: UInt8(ascii: "Z"))
            } else {
                put(secondOfDay % 60, width: 2, then: UInt8(ascii: "Z"))
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: output[0..<index]))
        }
    }

    /// The quotient rounded down and a remainder that is never negative.
    package static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func appendFallback(_ date: Date, milliseconds: Bool, to buffer: inout [UInt8]) {
        buffer.append(
            contentsOf: date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: milliseconds)).utf8)
    }
}
