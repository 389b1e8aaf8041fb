/// Identifies a request started through a ``RequestCenter``.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// A number unique within the process.
    public let value: UInt64

    /// `#<number>`.
    public var description: String { "#\(value)" }
}
