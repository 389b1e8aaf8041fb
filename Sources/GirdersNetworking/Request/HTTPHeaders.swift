/// One header field as sent or received: the name keeps its spelling, comparisons ignore case.
public struct HTTPHeader: Sendable, Hashable {
    /// The field name as written, for example `Content-Type`.
    public let name: String
    /// The field value as set, or as received after the transport dropped the surrounding white space.
    public let value: String

    /// A header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An ordered list of header fields with case-insensitive lookup; repeated names are kept.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["accept"]  // "application/json"
/// headers.add(name: "Set-Cookie", value: "a=1")
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The fields in the order they were added or received.
    public private(set) var fields: [HTTPHeader]

    /// Headers from fields in order.
    public init(_ fields: [HTTPHeader] = []) {
        self.fields = fields
    }

    /// Headers from a dictionary, sorted by name so the order is stable.
    public init(_ dictionary: [String: String]) {
        self.fields = dictionary.sorted { $0.key < $1.key }.map { HTTPHeader(name: $0.key, value: $0.value) }
    }

    /// Headers from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name` (any case); setting replaces every such field, `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            if let newValue { set(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value of the fields named `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` exists.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.same($0.name, name) }
    }

    /// Replaces every field named `name` with one field, kept at the position of the first.
    public mutating func set(name: String, value: String) {
        let field = HTTPHeader(name: name, value: value)
        guard let index = fields.firstIndex(where: { Self.same($0.name, name) }) else {
            fields.append(field)
            return
        }
        fields.removeAll { Self.same($0.name, name) }
        fields.insert(field, at: index)
    }

    /// Adds a field, keeping any others with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    /// The fields as a dictionary; repeated names are joined with `", "` as RFC 9110 allows.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields {
            if let existing = result[field.name] {
                result[field.name] = existing + ", " + field.value
            } else {
                result[field.name] = field.value
            }
        }
        return result
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[HTTPHeader]> {
        fields.makeIterator()
    }

    /// `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Equal when both hold the same fields in the same order, names compared without case.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { same($0.name, $1.name) && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison, as header names are ASCII tokens.
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let l?, let r?) where l == r || (l | 0x20 == r | 0x20 && (l | 0x20) >= 0x61 && (l | 0x20) <= 0x7A):
                continue
            default: return false
            }
        }
    }
}
