package import Foundation

/// One value of a property list, as ``XMLPropertyListParser`` and ``BinaryPropertyListReader`` build it: the
/// neutral tree that GirdersConfig turns into its `ConfigValue`s and GirdersTrema into `.strings` tables.
package indirect enum PropertyListValue: Sendable, Hashable {
    /// `<string>`, or an ASCII or UTF-16 string object.
    case string(String)
    /// `<integer>`, within `Int`'s range.
    case integer(Int)
    /// `<real>`.
    case double(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>`.
    case date(Date)
    /// `<data>`.
    case data(Data)
    /// `<array>`.
    case array([PropertyListValue])
    /// `<dict>`, with string keys.
    case dictionary([String: PropertyListValue])

    /// The type's name as errors print it: `String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `Array`,
    /// `Dictionary`.
    package var typeName: String {
        switch self {
        case .string: "String"
        case .integer: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .date: "Date"
        case .data: "Data"
        case .array: "Array"
        case .dictionary: "Dictionary"
        }
    }
}
