/// A close frame's status code (RFC 6455, section 7.4).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as it goes on the wire.
    public let rawValue: UInt16

    /// A code; any value (whether it may be sent is ``isSendable``).
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away.
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot take.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: no code was given (never sent; what a close without a body reads as).
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: the connection ended without a close frame (never sent).
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message that is not UTF-8, or data inconsistent with its type.
    public static let invalidPayloadData = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that breaks the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a frame or message larger than the endpoint takes.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the server did not agree to an extension the client needs.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether the code may appear in a close frame (section 7.4.1 and the IANA registry): 1000-1003, 1007-1011
    /// (1012-1014 registered since), and 3000-4999 for libraries, frameworks and applications.
    public var isSendable: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number.
    public var description: String { String(rawValue) }
}
