import GirdersSupport

/// A printf-style placeholder in a value: `%@`, `%d`, `%1$@`, `%.2f`, `%%`.
public struct PrintfPlaceholder: Sendable, Equatable {
    /// The explicit position (`%2$@` has 2), if any.
    public let position: Int?
    /// Flags, width, precision and length between `%` (or `n$`) and the conversion, for example `.2` or `ll`.
    public let modifiers: String
    /// The conversion character: `@`, `d`, `i`, `u`, `f`, `s`, `%`, ...
    public let conversion: Character
    /// The placeholder's range in the value's characters.
    public let range: Range<String.Index>
    /// Which Swift values the placeholder accepts, derived from its conversion when it is scanned.
    public let kind: Kind

    init(position: Int?, modifiers: String, conversion: UInt8, range: Range<String.Index>) {
        self.position = position
        self.modifiers = modifiers
        self.conversion = Character(Unicode.Scalar(conversion))
        self.range = range
        self.kind = Self.kind(of: conversion)
    }

    /// What an argument for the conversion is in Swift.
    public enum Kind: String, Sendable {
        /// `d i o u x X c` (with any length): an integer.
        case integer = "Int"
        /// `f F e E g G a A`: a floating-point number.
        case double = "Double"
        /// `@ s`: an object or a string.
        case string = "String"
        /// `p`: a pointer; not translated between platforms.
        case pointer
        /// `%%`: a literal percent sign.
        case percent
    }

    /// The highest explicit position honoured (`%99$@`); a placeholder beyond it is left as it is.
    public static let maximumPosition = 99
    /// The highest width or precision honoured (`%1000d`, `%.1000f`); a placeholder beyond it is left as it is.
    public static let maximumWidth = 1000

    /// Whether the placeholder is well formed and its position, width and precision are within
    /// ``maximumPosition`` and ``maximumWidth``. Lint reports a placeholder outside them as an error; the runtime
    /// and the exporters treat it as plain text, so a few bytes of a translation can never ask for megabytes of
    /// padding or thousands of parameters.
    ///
    /// Well formed means printf's order: flags (`-+ #0'`), a width, a `.` and a precision, then at most two
    /// length letters (`l`, `ll`, `h`, `hh`, `q`, `L`, `z`, `j`, `t`). Anything else (`%1jj00d`) is refused, as
    /// digits split by length letters would otherwise join into a width beyond the limit once those are removed.
    public var isWithinLimits: Bool {
        Array(modifiers.utf8).withUnsafeBufferPointer { Self.isWithinLimits(position: position, modifiers: $0[...]) }
    }

    /// ``isWithinLimits`` of a placeholder at `position` with the `modifiers` bytes.
    private static func isWithinLimits(position: Int?, modifiers bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        if let position, position > maximumPosition { return false }
        var index = bytes.startIndex
        while index < bytes.endIndex, flagBytes.contains(bytes[index]) { index += 1 }
        func number() -> Bool {
            var value = 0
            while index < bytes.endIndex, (48...57).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 48)
                if value > maximumWidth { return false }
                index += 1
            }
            return true
        }
        guard number() else { return false }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard number() else { return false }
        }
        let length = bytes[index...]
        return length.count <= 2 && length.allSatisfy { lengthBytes.contains($0) }
    }

    private static let flagBytes = ByteSet("-+ #0'")
    private static let lengthBytes = ByteSet("hlqLzjt")

    /// Which Swift values a placeholder with the `conversion` character accepts.
    static func kind(of conversion: UInt8) -> Kind {
        switch conversion {
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"), UInt8(ascii: "x"),
            UInt8(ascii: "X"), UInt8(ascii: "c"), UInt8(ascii: "C"):
            .integer
        case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"),
            UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"):
            .double
        case UInt8(ascii: "@"), UInt8(ascii: "s"), UInt8(ascii: "S"): .string
        case UInt8(ascii: "p"): .pointer
        default: .percent
        }
    }

    /// Every placeholder in `text`, in order. A `%` not followed by a valid placeholder is not one.
    public static func scan(_ text: String) -> [PrintfPlaceholder] {
        guard text.containsUTF8(UInt8(ascii: "%")) else { return [] }
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes in
            scan(bytes) { offset in text.utf8.index(text.utf8.startIndex, offsetBy: offset) }
        }
        return fast ?? scanByIndices(text)
    }

    /// ``scan(_:)`` over the UTF-8 of a native string, by offsets; `index` turns an offset into the string's index.
    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, index: (Int) -> String.Index
    ) -> [PrintfPlaceholder] {
        var result: [PrintfPlaceholder] = []
        result.reserveCapacity(4)  // most texts have a few: one allocation, not one per growth
        var start = 0
        while let found = next(in: bytes, from: start) {
            // Modifier bytes are ASCII, so any run of them is valid UTF-8.
            let modifiers =
                found.modifiers.isEmpty
                ? "" : String(decoding: UnsafeBufferPointer(rebasing: bytes[found.modifiers]), as: UTF8.self)
            result.append(
                PrintfPlaceholder(
                    position: found.position, modifiers: modifiers, conversion: found.conversion,
                    range: index(found.start)..<index(found.end)))
            start = found.end
        }
        return result
    }

    /// A placeholder found in UTF-8 bytes, by byte offsets: what ``scan(_:)``, ``analyze(_:)`` and the Android
    /// exporter share.
    struct Found {
        var start: Int
        var end: Int
        var position: Int?
        var modifiers: Range<Int>
        var conversion: UInt8
    }

    /// The first placeholder in `bytes` at or after offset `start`.
    static func next(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Found? {
        var start = start
        let end = bytes.count
        while start < end {
            guard let found = bytes.firstOffset(of: UInt8(ascii: "%"), from: start) else { return nil }
            var cursor = found + 1
            guard cursor < end else { return nil }
            if bytes[cursor] == UInt8(ascii: "%") {
                return Found(
                    start: found, end: cursor + 1, position: nil, modifiers: cursor..<cursor,
                    conversion: UInt8(ascii: "%"))
            }
            var number = 0
            let digitsStart = cursor
            while cursor < end, (48...57).contains(bytes[cursor]), number < 1_000_000 {
                number = number * 10 + Int(bytes[cursor] - 48)
                cursor += 1
            }
            var position: Int?
            if cursor < end, bytes[cursor] == UInt8(ascii: "$"), cursor > digitsStart, number > 0 {
                position = number
                cursor += 1
            } else {
                cursor = digitsStart
            }
            let modifiersStart = cursor
            while cursor < end, modifierBytes.contains(bytes[cursor]) { cursor += 1 }
            guard cursor < end, conversionBytes.contains(bytes[cursor]) else {
                start = found + 1
                continue
            }
            return Found(
                start: found, end: cursor + 1, position: position, modifiers: modifiersStart..<cursor,
                conversion: bytes[cursor])
        }
        return nil
    }

    /// ``scan(_:)`` for a string without contiguous UTF-8 (a bridged one), through its indices.
    private static func scanByIndices(_ text: String) -> [PrintfPlaceholder] {
        let utf8 = text.utf8
        var result: [PrintfPlaceholder] = []
        var index = utf8.startIndex
        while let percent = utf8[index...].firstIndex(of: UInt8(ascii: "%")) {
            var cursor = utf8.index(after: percent)
            guard cursor < utf8.endIndex else { break }
            if utf8[cursor] == UInt8(ascii: "%") {
                cursor = utf8.index(after: cursor)
                result.append(
                    PrintfPlaceholder(
                        position: nil, modifiers: "", conversion: UInt8(ascii: "%"), range: percent..<cursor))
                index = cursor
                continue
            }
            var number = 0
            let digitsStart = cursor
            while cursor < utf8.endIndex, (48...57).contains(utf8[cursor]), number < 1_000_000 {
                number = number * 10 + Int(utf8[cursor] - 48)
                cursor = utf8.index(after: cursor)
            }
            var position: Int?
            if cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: "$"), cursor > digitsStart, number > 0 {
                position = number
                cursor = utf8.index(after: cursor)
            } else {
                cursor = digitsStart
            }
            let modifiersStart = cursor
            while cursor < utf8.endIndex, modifierBytes.contains(utf8[cursor]) { cursor = utf8.index(after: cursor) }
            guard cursor < utf8.endIndex, conversionBytes.contains(utf8[cursor]) else {
                index = utf8.index(after: percent)
                continue
            }
            let conversion = utf8[cursor]
            let modifiers = modifiersStart == cursor ? "" : String(text[modifiersStart..<cursor])
            cursor = utf8.index(after: cursor)
            result.append(
                PrintfPlaceholder(
                    position: position, modifiers: modifiers, conversion: conversion, range: percent..<cursor))
            index = cursor
        }
        return result
    }

    private static let modifierBytes = ByteSet("-+ #0123456789.'hlqLzjt")
    private static let conversionBytes = ByteSet("@dDiouUxXcCfFeEgGaAsSp")

    /// The argument kinds by position (1-based), numbering unpositioned placeholders in order as printf does;
    /// `%%`, `%p` and placeholders beyond the limits (see ``isWithinLimits``) are skipped.
    public static func argumentKinds(_ text: String) -> [Int: Kind] {
        var kinds: [Int: Kind] = [:]
        for (offset, kind) in analyze(text).kinds.enumerated() {
            if let kind { kinds[offset + 1] = kind }
        }
        return kinds
    }

    /// Whether the placeholder consumes an argument: not `%%` or `%p`, and within the limits.
    var takesArgument: Bool { kind != .percent && kind != .pointer && isWithinLimits }

    /// What is wrong with the placeholders of `text`, in order: placeholders beyond the limits, and a position
    /// used with two different kinds (`%1$@ ... %1$d`), which no argument can satisfy.
    public static func problems(in text: String) -> [String] {
        analyze(text).problems
    }

    /// ``argumentKinds(_:)`` as an array (the kind of argument `n` at `n - 1`, `nil` for a position no
    /// placeholder uses, as long as the highest position used) and ``problems(in:)``, from one scan. Positions are
    /// at most ``maximumPosition``, so the array is small; two texts take the same arguments when the arrays are
    /// equal.
    static func analyze(_ text: String) -> (kinds: [Kind?], problems: [String]) {
        guard text.containsUTF8(UInt8(ascii: "%")) else { return ([], []) }
        var native = text
        native.makeContiguousUTF8()  // a no-op for every string but a bridged one
        return native.utf8.withContiguousStorageIfAvailable { analyze($0) } ?? ([], [])
    }

    /// ``analyze(_:)`` over contiguous UTF-8, without building a placeholder value for each.
    private static func analyze(_ bytes: UnsafeBufferPointer<UInt8>) -> (kinds: [Kind?], problems: [String]) {
        var problems: [String] = []
        var kinds: [Kind?] = []
        kinds.reserveCapacity(4)  // one allocation for the usual numbering
        // The first kind each position was used with, for the problem; made only once a position is used twice
        // (until then, `kinds` holds every position's first kind).
        var first: [Kind?]?
        var next = 1
        var start = 0
        while let found = Self.next(in: bytes, from: start) {
            start = found.end
            let kind = kind(of: found.conversion)
            guard kind != .percent && kind != .pointer else { continue }
            let written = {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[found.start..<found.end]), as: UTF8.self)
            }
            guard isWithinLimits(position: found.position, modifiers: bytes[found.modifiers]) else {
                problems.append(
                    "placeholder '\(written())' exceeds the limits (position \(maximumPosition), width and precision \(maximumWidth))"
                )
                continue
            }
            let position = found.position ?? next
            if found.position == nil { next += 1 }
            while kinds.count < position {
                kinds.append(nil)
                first?.append(nil)
            }
            if first == nil && kinds[position - 1] != nil { first = kinds }
            kinds[position - 1] = kind
            if let earlier = first?[position - 1] ?? nil, earlier != kind {
                problems.append(
                    "placeholder '\(written())' uses argument \(position) as \(kind.rawValue), an earlier one as \(earlier.rawValue)"
                )
            } else {
                first?[position - 1] = kind  // changed in place; nothing to keep while no position repeats
            }
        }
        return (kinds, problems)
    }
}

/// A set of ASCII bytes as a 128-bit mask.
struct ByteSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ characters: String) {
        for byte in characters.utf8 where byte < 128 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : byte < 128 && (high >> UInt64(byte - 64)) & 1 == 1
    }
}
