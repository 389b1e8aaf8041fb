import Foundation

/// Writes ``ConfigValue/description`` into one buffer, without recursion, and stops at a bound: a value nested
/// hundreds of levels deep renders in time and memory linear in what is written (building each level's text from
/// its children's took time and memory quadratic in the depth), and a huge value renders as its first
/// ``ConfigValue/maximumDescriptionLength`` characters and "…".
struct ConfigValueRendering {
    private enum Step {
        case value(ConfigValue)
        case text(String)
    }

    private(set) var text = ""
    private let limit: Int
    private var count = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Appends `value`'s rendering; returns `false` once the bound is reached.
    mutating func write(_ value: ConfigValue) {
        var steps: [Step] = [.value(value)]
        while let step = steps.popLast() {
            switch step {
            case .text(let piece):
                guard append(piece) else { return }
            case .value(let value):
                switch value {
                case .array(let values):
                    steps.append(.text("]"))
                    for (offset, element) in values.enumerated().reversed() {
                        steps.append(.value(element))
                        if offset > 0 { steps.append(.text(", ")) }
                    }
                    steps.append(.text("["))
                case .dictionary(let values):
                    steps.append(.text("}"))
                    for (offset, key) in values.keys.sorted().enumerated().reversed() {
                        if let element = values[key] { steps.append(.value(element)) }
                        steps.append(.text(offset > 0 ? ", \(key): " : "\(key): "))
                    }
                    steps.append(.text("{"))
                default:
                    guard append(Self.scalar(value)) else { return }
                }
            }
        }
    }

    /// Appends `piece`, or as much as fits and "…"; `false` once the bound is reached.
    private mutating func append(_ piece: String) -> Bool {
        let room = limit - count
        let length = piece.count
        if length <= room {
            text += piece
            count += length
            return true
        }
        text += piece.prefix(room) + "…"
        count = limit
        return false
    }

    /// The rendering of a value that holds no other value.
    private static func scalar(_ value: ConfigValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .date(let date): date.formatted(Date.ISO8601FormatStyle())
        case .data(let data): "<\(data.count) bytes>"
        case .array, .dictionary: ""
        }
    }
}
