/// Whether a value may appear in log output as it is.
///
/// Private values print as `<redacted>` unless the destination was created with `revealsPrivateData: true`.
public enum LogPrivacy: Sendable, Hashable {
    /// Printed as it is by every destination.
    case `public`
    /// Printed as `<redacted>` unless the destination opts in.
    case `private`

    /// The text that replaces a private value.
    public static let redactedPlaceholder = "<redacted>"
}
