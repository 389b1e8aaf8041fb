public import GirdersLog
public import Logging

extension GirdersLog.LogMetadataValue {
    /// swift-log's value for this one. swift-log has no privacy of its own, so a private part becomes
    /// GirdersLog's redaction placeholder unless `revealingPrivate`.
    public func swiftLogValue(revealingPrivate: Bool) -> Logging.Logger.MetadataValue {
        switch self {
        case .string(let text): .string(text)
        case .array(let values): .array(values.map { $0.swiftLogValue(revealingPrivate: revealingPrivate) })
        case .dictionary(let values):
            .dictionary(values.mapValues { $0.swiftLogValue(revealingPrivate: revealingPrivate) })
        case .private(let value):
            revealingPrivate ? value.swiftLogValue(revealingPrivate: true) : .string(LogPrivacy.redactedPlaceholder)
        }
    }

    /// GirdersLog's value for swift-log's `value` (a `stringConvertible` value as its description). swift-log has
    /// no privacy, so nothing arrives private.
    public init(_ value: Logging.Logger.MetadataValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .stringConvertible(let convertible): self = .string(convertible.description)
        case .array(let values): self = .array(values.map { GirdersLog.LogMetadataValue($0) })
        case .dictionary(let values): self = .dictionary(values.mapValues { GirdersLog.LogMetadataValue($0) })
        }
    }
}
