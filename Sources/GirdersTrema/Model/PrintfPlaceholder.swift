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

    /// The argument kind.
    public var kind: Kind {
        switch conversion {
        case "d", "i", "o", "u", "x", "X", "c", "C": .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": .double
        case "@", "s", "S": .string
        case "p": .pointer
        default: .percent
        }
    }

    /// Every placeholder in `text`, in order. A `%` not followed by a valid placeholder is not one.
    public static func scan(_ text: String) -> [PrintfPlaceholder] {
        var result: [PrintfPlaceholder] = []
        var index = text.startIndex
        while let percent = text[index...].firstIndex(of: "%") {
            var cursor = text.index(after: percent)
            guard cursor < text.endIndex else { break }
            if text[cursor] == "%" {
                result.append(PrintfPlaceholder(position: nil, modifiers: "", conversion: "%", range: percent..<text.index(after: cursor)))
                index = text.index(after: cursor)
                continue
            }
            var position: Int?
            let digitsStart = cursor
            while cursor < text.endIndex, text[cursor].isASCII, text[cursor].isNumber { cursor = text.index(after: cursor) }
            if cursor < text.endIndex, text[cursor] == "$", cursor > digitsStart, let number = Int(text[digitsStart..<cursor]), number > 0 {
                position = number
                cursor = text.index(after: cursor)
            } else {
                cursor = digitsStart
            }
            let modifiersStart = cursor
            while cursor < text.endIndex, "-+ #0123456789.'hlqLzjt".contains(text[cursor]) { cursor = text.index(after: cursor) }
            guard cursor < text.endIndex, "@dDiouUxXcCfFeEgGaAsSp".contains(text[cursor]) else {
                index = text.index(after: percent)
                continue
            }
            result.append(
                PrintfPlaceholder(
                    position: position, modifiers: String(text[modifiersStart..<cursor]), conversion: text[cursor],
                    range: percent..<text.index(after: cursor)))
            index = text.index(after: cursor)
        }
        return result
    }

    /// The argument kinds by position (1-based), numbering unpositioned placeholders in order as printf does;
    /// `%%` and `%p` are skipped.
    public static func argumentKinds(_ text: String) -> [Int: Kind] {
        var kinds: [Int: Kind] = [:]
        var next = 1
        for placeholder in scan(text) where placeholder.kind != .percent && placeholder.kind != .pointer {
            let position = placeholder.position ?? next
            if placeholder.position == nil { next += 1 }
            kinds[position] = placeholder.kind
        }
        return kinds
    }
}
