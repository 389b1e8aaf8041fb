/// The text of a log line, built by string interpolation, that remembers which parts are private.
///
/// ```swift
/// logger.info("Signed in \(user.name) with token \(token, privacy: .private)")
/// ```
/// A message is only built when its level is enabled: logging methods take it as an `@autoclosure`.
public struct LogMessage: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The text with every private value in place.
    public let revealedText: String
    /// The text with every private value replaced by `<redacted>`; `nil` when nothing is private.
    @usableFromInline let redactedVariant: String?

    /// Creates a message from plain text with no private parts.
    @inlinable
    public init(_ text: String) {
        self.revealedText = text
        self.redactedVariant = nil
    }

    /// Creates a message from a literal.
    @inlinable
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Creates a message from an interpolation; see ``StringInterpolation``.
    public init(stringInterpolation: StringInterpolation) {
        self.revealedText = stringInterpolation.revealed
        self.redactedVariant = stringInterpolation.redacted
    }

    /// `true` when the message has at least one private value.
    public var containsPrivateData: Bool { redactedVariant != nil }

    /// The text with private values redacted; the same as ``revealedText`` when nothing is private.
    public var redactedText: String { redactedVariant ?? revealedText }

    /// The text as a destination should print it.
    @inlinable
    public func text(revealingPrivate: Bool) -> String {
        revealingPrivate ? revealedText : (redactedVariant ?? revealedText)
    }

    /// The redacted text, so that printing a message never leaks a private value by accident.
    public var description: String { redactedText }

    /// Collects literal segments and interpolated values, each public or private.
    public struct StringInterpolation: StringInterpolationProtocol {
        var revealed: String
        var redacted: String?

        /// Reserves room for the literal parts.
        public init(literalCapacity: Int, interpolationCount: Int) {
            revealed = ""
            revealed.reserveCapacity(literalCapacity + interpolationCount * 4)
        }

        /// Appends literal text.
        public mutating func appendLiteral(_ literal: String) {
            revealed += literal
            redacted? += literal
        }

        /// Appends a value printed with `String(describing:)`, public unless stated otherwise.
        public mutating func appendInterpolation<Value>(_ value: Value, privacy: LogPrivacy = .public) {
            append(String(describing: value), privacy: privacy)
        }

        /// Appends a value's `description`, public unless stated otherwise.
        public mutating func appendInterpolation<Value: CustomStringConvertible>(
            _ value: Value, privacy: LogPrivacy = .public
        ) {
            append(value.description, privacy: privacy)
        }

        /// Appends a string, public unless stated otherwise.
        public mutating func appendInterpolation(_ value: String, privacy: LogPrivacy = .public) {
            append(value, privacy: privacy)
        }

        private mutating func append(_ text: String, privacy: LogPrivacy) {
            switch privacy {
            case .public:
                revealed += text
                redacted? += text
            case .private:
                if redacted == nil { redacted = revealed }
                revealed += text
                redacted? += LogPrivacy.redactedPlaceholder
            }
        }
    }
}
