/// What ``OSLogDestination`` hands to `os.Logger` for one record, decided here so the Linux tests run it: the
/// unified log's level, the text, and whether the text goes out with `privacy: .private` or `.public`.
///
/// `os.Logger` takes one privacy per interpolation, so it is chosen from everything the line carries, the
/// message and its metadata alike: when the destination reveals private data and any part of the line is
/// private, the revealed line is sent as `.private` (the system still hides it outside debugging); otherwise the
/// redacted line is sent as `.public`. A private value never reaches the log marked public.
struct OSLogLine: Equatable, Sendable {
    /// The unified log's levels, with the raw values of `os_log_type_t` (`<os/log.h>`), so the destination hands
    /// them over as `OSLogType(rawValue:)` without a mapping of its own.
    enum Level: UInt8, Equatable, Sendable {
        case `default` = 0x00
        case info = 0x01
        case debug = 0x02
        case error = 0x10
        case fault = 0x11
    }

    let level: Level
    let text: String
    let isPrivate: Bool

    init(level: Level, text: String, isPrivate: Bool) {
        self.level = level
        self.text = text
        self.isPrivate = isPrivate
    }

    init(_ record: LogRecord, revealsPrivateData: Bool) {
        level =
            switch record.level {
            case .verbose, .debug: .debug
            case .info: .info
            case .warning: .default
            case .error: .error
            case .fatal: .fault
            }
        let hasPrivatePart =
            record.message.containsPrivateData || record.metadata.values.contains(where: \.containsPrivateData)
        isPrivate = revealsPrivateData && hasPrivatePart
        var text = isPrivate ? record.message.revealedText : record.message.redactedText
        for key in record.metadata.keys.sorted() {
            text += " \(key)="
            record.metadata[key]?.render(into: &text, revealingPrivate: isPrivate)
        }
        self.text = text
    }
}

extension LogMetadataValue {
    /// Whether any part of the value is private.
    var containsPrivateData: Bool {
        switch self {
        case .string: false
        case .private: true
        case .array(let values): values.contains(where: \.containsPrivateData)
        case .dictionary(let values): values.values.contains(where: \.containsPrivateData)
        }
    }
}
