import Foundation

/// A non-negative finite `Double` as plain decimal digits (no exponent), for ``PluralOperands``.
enum PlainDecimal {
    /// The shortest digits that read back to `value` (Swift's `description`), without an exponent and without a
    /// fraction when the value is an integer: `1.5`, `1`, `10000000000000000`, `0.0000001`.
    static func shortest(_ value: Double) -> String {
        let text = value.description
        guard let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        let mantissa = text[..<exponentIndex]
        let exponent = Int(text[text.index(after: exponentIndex)...]) ?? 0
        let point = mantissa.firstIndex(of: ".") ?? mantissa.endIndex
        let whole = mantissa[..<point]
        let rest = point == mantissa.endIndex ? "" : mantissa[mantissa.index(after: point)...]
        var digits = String(whole) + rest
        var pointPosition = whole.count + exponent
        if pointPosition <= 0 {
            digits = String(repeating: "0", count: 1 - pointPosition) + digits
            pointPosition = 1
        }
        if pointPosition >= digits.count {
            return digits + String(repeating: "0", count: pointPosition - digits.count)
        }
        let integer = digits.prefix(pointPosition)
        let fraction = digits.dropFirst(pointPosition).reversed().drop { $0 == "0" }.reversed()
        return fraction.isEmpty ? String(integer) : integer + "." + String(fraction)
    }

    /// `value` with exactly `digits` fraction digits, as `%.<digits>f` prints it.
    static func fixed(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
