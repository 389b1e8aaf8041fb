public import Foundation
import GirdersSupport

/// One configuration value, as a property list can hold it.
public indirect enum ConfigValue: Sendable, Hashable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// An integer (`<integer>`).
    case integer(Int)
    /// A floating-point number (`<real>`).
    case double(Double)
    /// A Boolean (`<true/>`, `<false/>`).
    case bool(Bool)
    /// A date (`<date>`).
    case date(Date)
    /// Raw bytes (`<data>`).
    case data(Data)
    /// An ordered list.
    case array([ConfigValue])
    /// Nested values keyed by name.
    case dictionary([String: ConfigValue])

    /// The type's name as errors print it: `String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `Array`,
    /// `Dictionary`.
    public var typeName: String {
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

    /// A short rendering for messages and dumps, for example `"https://x"`, `30`, `[1, 2]`: at most
    /// ``maximumDescriptionLength`` characters (a longer one ends with "…"), built in time linear in its length
    /// however deep the value is nested.
    public var description: String {
        var rendering = ConfigValueRendering(limit: Self.maximumDescriptionLength)
        rendering.write(self)
        return rendering.text
    }

    /// The most characters ``description`` renders of one value.
    public static let maximumDescriptionLength = 16_384

    /// The value as Foundation types, as GirdersSwift's `Any?` subscript returned it: `String`, `Int`,
    /// `Double`, `Bool`, `Date`, `Data`, `[Any]`, `[String: Any]`.
    public var foundationValue: Any {
        switch self {
        case .string(let text): text
        case .integer(let number): number
        case .double(let number): number
        case .bool(let flag): flag
        case .date(let date): date
        case .data(let data): data
        case .array(let values): values.map(\.foundationValue)
        case .dictionary(let values): values.mapValues(\.foundationValue)
        }
    }

    /// Converts a value produced by `PropertyListSerialization`; `nil` for anything a plist cannot hold.
    public init?(propertyListValue value: Any) {
        switch value {
        case let text as String:
            self = .string(text)
        case let flag as Bool where type(of: value) == Bool.self:
            self = .bool(flag)
        case let number as NSNumber:
            guard let converted = ConfigValue(number: number) else { return nil }
            self = converted
        case let date as Date:
            self = .date(date)
        case let data as Data:
            self = .data(data)
        case let values as [Any]:
            var converted: [ConfigValue] = []
            converted.reserveCapacity(values.count)
            for element in values {
                guard let value = ConfigValue(propertyListValue: element) else { return nil }
                converted.append(value)
            }
            self = .array(converted)
        case let values as [String: Any]:
            var converted: [String: ConfigValue] = [:]
            converted.reserveCapacity(values.count)
            for (key, element) in values {
                guard let value = ConfigValue(propertyListValue: element) else { return nil }
                converted[key] = value
            }
            self = .dictionary(converted)
        default:
            return nil
        }
    }

    /// The class of Foundation's Boolean numbers, the same on every platform.
    private static let booleanNumberType = type(of: NSNumber(value: true))

    /// Numbers arrive as `NSNumber`: a Boolean is Foundation's boolean class on every platform (`__NSCFBoolean`,
    /// whose type code is the same as a `CChar`'s), and the Objective-C type code tells integers and reals apart.
    init?(number: NSNumber) {
        if type(of: number) == ConfigValue.booleanNumberType {
            self = .bool(number.boolValue)
            return
        }
        let code = String(cString: number.objCType)
        switch code {
        case "f", "d":
            self = .double(number.doubleValue)
        case "Q", "L", "I":
            guard let integer = Int(exactly: number.uint64Value) else { self = .double(number.doubleValue); return }
            self = .integer(integer)
        default:
            self = .integer(number.intValue)
        }
    }
}

extension ConfigValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A floating-point value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A list.
    public init(arrayLiteral elements: ConfigValue...) { self = .array(elements) }
    /// A dictionary; later duplicates win.
    public init(dictionaryLiteral elements: (String, ConfigValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension ConfigValue {
    /// The value a shared property-list parser read. Nesting is walked with a stack of its own, not the call
    /// stack, so the 512 levels the parsers accept convert on a small thread stack.
    init(_ value: PropertyListValue) {
        // Each frame is a container whose children are converted in order; a finished one joins its parent.
        struct Frame {
            var source: PropertyListValue
            var keys: [String] = []
            var next = 0
            var items: [ConfigValue] = []
            var entries: [String: ConfigValue] = [:]
        }
        func leaf(_ value: PropertyListValue) -> ConfigValue? {
            switch value {
            case .string(let text): .string(text)
            case .integer(let number): .integer(number)
            case .double(let number): .double(number)
            case .bool(let flag): .bool(flag)
            case .date(let date): .date(date)
            case .data(let data): .data(data)
            case .array, .dictionary: nil
            }
        }
        func frame(_ value: PropertyListValue) -> Frame {
            if case .dictionary(let entries) = value { return Frame(source: value, keys: Array(entries.keys)) }
            return Frame(source: value)
        }
        if let converted = leaf(value) {
            self = converted
            return
        }
        var stack = [frame(value)]
        var finished: ConfigValue?
        while var top = stack.popLast() {
            if let child = finished {
                switch top.source {
                case .dictionary: top.entries[top.keys[top.next - 1]] = child
                default: top.items.append(child)
                }
                finished = nil
            }
            let next: PropertyListValue?
            switch top.source {
            case .array(let items): next = top.next < items.count ? items[top.next] : nil
            case .dictionary(let entries): next = top.next < top.keys.count ? entries[top.keys[top.next]] : nil
            default: next = nil
            }
            guard let next else {
                if case .dictionary = top.source {
                    finished = .dictionary(top.entries)
                } else {
                    finished = .array(top.items)
                }
                continue
            }
            top.next += 1
            if let converted = leaf(next) {
                finished = converted
                stack.append(top)
            } else {
                stack.append(top)
                stack.append(frame(next))
            }
        }
        self = finished ?? .dictionary([:])
    }
}
