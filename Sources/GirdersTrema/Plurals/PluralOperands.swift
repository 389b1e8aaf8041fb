/// A number as CLDR's plural rules see it: the integer digits and the fraction digits as written.
///
/// `1` and `1.0` are different numbers to a plural rule (English says "1 item" but "1.0 items"), so the operands
/// come from the digits the user sees: an integer has none after the point, a `Double` has the shortest digits
/// that read back to it (`1.5`; `1.0` counts as `1`) unless the number of fraction digits shown is given, and a
/// decimal string keeps its trailing zeros (`"1.50"`). The sign is ignored.
///
/// Integer digits beyond 18 keep their last 18 digits plus 10^18, so every rule (which tests a remainder modulo at
/// most 10^6, or a small range) still decides right for numbers of any size; the same holds for fraction digits.
public struct PluralOperands: Sendable, Hashable {
    /// `i`: the integer digits.
    public let i: UInt64
    /// `v`: how many fraction digits are visible, trailing zeros included.
    public let v: Int
    /// `w`: how many fraction digits are visible without trailing zeros.
    public let w: Int
    /// `f`: the visible fraction digits as an integer (`1.50` has 50).
    public let f: UInt64
    /// `t`: the visible fraction digits without trailing zeros (`1.50` has 5).
    public let t: UInt64

    /// The operands of an integer.
    public init(_ value: some BinaryInteger) {
        let magnitude = value.magnitude
        if let small = UInt64(exactly: magnitude), small < Self.limit {
            i = small
        } else {
            i = UInt64(magnitude % Self.limitMagnitude(of: magnitude)) + Self.limit
        }
        v = 0
        w = 0
        f = 0
        t = 0
    }

    /// The operands of a `Double` shown with `fractionDigits` digits after the point (as `%.2f` shows it), or with
    /// the shortest digits that read back to it when `nil`. Infinity and NaN have no digits and count as a large
    /// integer here; ``PluralRules/category(for:fractionDigits:)`` and the translator give them `other` before
    /// asking for operands.
    public init(_ value: Double, fractionDigits: Int? = nil) {
        guard value.isFinite else {
            self.init(digits: Array("1000000000000000000".utf8), fraction: [])
            return
        }
        let text: String
        if let fractionDigits {
            text = PlainDecimal.fixed(value.magnitude, digits: min(max(fractionDigits, 0), 1000))
        } else {
            text = PlainDecimal.shortest(value.magnitude)
        }
        // Both forms are plain digits with at most one point: parsing cannot fail.
        self = PluralOperands(decimal: text) ?? PluralOperands(0)
    }

    /// The operands of a decimal as written: an optional sign, digits, and optionally a point and more digits
    /// (`"3"`, `"-1.50"`, `".5"`). `nil` for anything else, exponents included.
    public init?(decimal text: String) {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let integer = bytes.prefix { $0 != UInt8(ascii: ".") }
        var fraction = bytes.dropFirst(integer.count)
        if !fraction.isEmpty { fraction = fraction.dropFirst() }
        guard !(integer.isEmpty && fraction.isEmpty), integer.allSatisfy(Self.isDigit),
            fraction.allSatisfy(Self.isDigit),
            bytes.count == integer.count || !fraction.isEmpty
        else { return nil }
        self.init(digits: Array(integer), fraction: Array(fraction))
    }

    /// The operands of a number as `printf` printed it: a decimal with an optional exponent (`1.000000`,
    /// `1.500000e+03`, read as `1500.000`: the point moved, the digits kept) or a hexadecimal float (`0x1.8p+0`, read
    /// as its value, with as many visible fraction digits as it shows). Surrounding spaces and a sign are ignored;
    /// `nil` for anything else (`inf`, `nan`).
    init?(shown text: String) {
        var bytes = Array(text.utf8.drop { $0 == UInt8(ascii: " ") })
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes.removeFirst() }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] | 0x20 == UInt8(ascii: "x") {
            guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
            let mantissa = bytes.prefix { $0 | 0x20 != UInt8(ascii: "p") }
            let hexFraction = mantissa.drop { $0 != UInt8(ascii: ".") }.dropFirst().count
            var shortest = Array(PlainDecimal.shortest(value).utf8)
            if hexFraction > 0, !shortest.contains(UInt8(ascii: ".")) {
                shortest += [UInt8(ascii: ".")] + Array(repeating: UInt8(ascii: "0"), count: min(hexFraction, 1000))
            }
            self.init(decimal: String(decoding: shortest, as: UTF8.self))
            return
        }
        let exponentStart = bytes.firstIndex { $0 | 0x20 == UInt8(ascii: "e") } ?? bytes.endIndex
        var exponent = 0
        if exponentStart < bytes.endIndex {
            guard let value = Int(String(decoding: bytes[(exponentStart + 1)...], as: UTF8.self)),
                abs(value) <= 10_000
            else { return nil }
            exponent = value
        }
        let mantissa = bytes[..<exponentStart]
        let integer = mantissa.prefix { $0 != UInt8(ascii: ".") }
        let fraction = mantissa.dropFirst(integer.count).dropFirst()
        guard !(integer.isEmpty && fraction.isEmpty), integer.allSatisfy(Self.isDigit),
            fraction.allSatisfy(Self.isDigit)
        else { return nil }
        var digits = Array(integer) + Array(fraction)
        var point = integer.count + exponent
        if point < 0 {
            digits = Array(repeating: UInt8(ascii: "0"), count: -point) + digits
            point = 0
        }
        if point > digits.count { digits += Array(repeating: UInt8(ascii: "0"), count: point - digits.count) }
        self.init(digits: Array(digits[..<point]), fraction: Array(digits[point...]))
    }

    private init(digits: [UInt8], fraction: [UInt8]) {
        i = Self.value(of: digits)
        v = fraction.count
        let trimmed = fraction.reversed().drop { $0 == UInt8(ascii: "0") }.reversed()
        w = trimmed.count
        f = Self.value(of: fraction)
        t = Self.value(of: Array(trimmed))
    }

    /// 10^18: values at or above it are kept as their last 18 digits plus this.
    static let limit: UInt64 = 1_000_000_000_000_000_000

    private static func limitMagnitude<M: BinaryInteger>(of _: M) -> M { M(limit) }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

    /// The digits' value, or their last 18 digits plus 10^18 when there are more significant digits than that.
    private static func value(of digits: [UInt8]) -> UInt64 {
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        var result: UInt64 = 0
        for digit in significant.suffix(18) { result = result * 10 + UInt64(digit - 48) }
        return significant.count > 18 ? result + limit : result
    }
}
