/// The review state of one translated value, as trema-1.0.xsd defines it.
public enum TremaStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Entered but not translated yet.
    case initial
    /// Translated.
    case translated
    /// Translated and checked.
    case verified
    /// Deliberately special (for example the same in every language).
    case special

    /// Whether the value is ready to ship: every status but ``initial``.
    public var isFinal: Bool { self != .initial }

    /// The name as written in the file.
    public var description: String { rawValue }
}
