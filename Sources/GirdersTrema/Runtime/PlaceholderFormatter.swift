import Foundation

/// Fills a translation's printf placeholders with arguments without ever handing `String(format:)` an argument
/// it could misread.
///
/// A translation is input: its placeholders may not match the arguments the code passes. Each placeholder is
/// formatted on its own from the argument's Swift type, so a wrong kind, too few or too many arguments never
/// crash:
/// - an integer placeholder (`%d`, `%x`, `%c`, ...) with an integer argument is formatted by printf as a 64-bit
///   integer; a floating-point placeholder (`%f`, `%.2e`, ...) with a number is formatted as a `Double`;
/// - `%@` and `%s` take the argument's description; any placeholder whose argument is of another kind (a string
///   for `%d`, an integer for `%@`) is also filled with the argument's description;
/// - a placeholder without an argument, `%p`, and one beyond ``PrintfPlaceholder/maximumPosition`` or
///   ``PrintfPlaceholder/maximumWidth`` stay as they are; `%%` is one `%`.
enum PlaceholderFormatter {
    /// `format` with its placeholders filled from `arguments`; `decimalSeparator` replaces `.` in numbers.
    static func format(_ format: String, decimalSeparator: String, arguments: [any CVarArg]) -> String {
        var result = ""
        var cursor = format.startIndex
        var next = 0
        for placeholder in PrintfPlaceholder.scan(format) {
            result += format[cursor..<placeholder.range.lowerBound]
            cursor = placeholder.range.upperBound
            if placeholder.kind == .percent {
                result += "%"
                continue
            }
            guard placeholder.takesArgument else {
                result += format[placeholder.range]
                continue
            }
            let index = (placeholder.position ?? next + 1) - 1
            if placeholder.position == nil { next += 1 }
            guard index < arguments.count else {
                result += format[placeholder.range]
                continue
            }
            result += piece(placeholder, arguments[index], decimalSeparator: decimalSeparator)
        }
        return result + format[cursor...]
    }

    /// One placeholder filled with one argument.
    static func piece(_ placeholder: PrintfPlaceholder, _ argument: any CVarArg, decimalSeparator: String) -> String {
        let flags = String(placeholder.modifiers.unicodeScalars.filter { !lengthModifiers.contains($0) })
        switch placeholder.kind {
        case .integer:
            guard let value = integer(argument) else { break }
            switch placeholder.conversion {
            case "c", "C":
                return Unicode.Scalar(UInt32(truncatingIfNeeded: value)).map { String(Character($0)) } ?? "\u{FFFD}"
            case "D": return String(format: "%\(flags)lld", value)
            case "U": return String(format: "%\(flags)llu", value)
            default: return String(format: "%\(flags)ll\(placeholder.conversion)", value)
            }
        case .double:
            guard let value = double(argument) else { break }
            let text = String(format: "%\(flags)\(placeholder.conversion)", value)
            return decimalSeparator == "." ? text : text.replacingOccurrences(of: ".", with: decimalSeparator)
        case .string, .pointer, .percent:
            break
        }
        return String(describing: argument)
    }

    private static let lengthModifiers = Set("hlqLzjt".unicodeScalars)

    /// The argument as a 64-bit integer when it is one of Swift's integer types (and fits).
    static func integer(_ argument: any CVarArg) -> Int64? {
        switch argument {
        case let value as Int: Int64(value)
        case let value as Int8: Int64(value)
        case let value as Int16: Int64(value)
        case let value as Int32: Int64(value)
        case let value as Int64: value
        case let value as UInt: Int64(exactly: value)
        case let value as UInt8: Int64(value)
        case let value as UInt16: Int64(value)
        case let value as UInt32: Int64(value)
        case let value as UInt64: Int64(exactly: value)
        default: nil
        }
    }

    /// The argument as a `Double` when it is a floating-point number or an integer.
    static func double(_ argument: any CVarArg) -> Double? {
        switch argument {
        case let value as Double: value
        case let value as Float: Double(value)
        default: integer(argument).map(Double.init)
        }
    }
}
