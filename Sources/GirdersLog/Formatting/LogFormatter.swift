/// Turns a record into one line of text (without the trailing newline). Replace it to change the line format.
///
/// ```swift
/// struct JustTheMessage: LogFormatter {
///     func format(_ record: LogRecord, revealingPrivate: Bool) -> String {
///         record.message.text(revealingPrivate: revealingPrivate)
///     }
/// }
/// let console = ConsoleDestination(formatter: JustTheMessage())
/// ```
public protocol LogFormatter: Sendable {
    /// Formats `record`; private values must print as `<redacted>` unless `revealingPrivate` is `true`.
    func format(_ record: LogRecord, revealingPrivate: Bool) -> String
}

/// The standard line format:
/// `2026-11-22T13:30:56.123Z WARNING [label] Module/File.swift:42 message key=value other=value`.
///
/// The timestamp is RFC 3339 in UTC with milliseconds; metadata is sorted by key. Newlines inside the message
/// are kept; set ``escapesNewlines`` to write `\n` instead so that every record is one physical line.
public struct DefaultLogFormatter: LogFormatter {
    /// Whether the call site (`file:line`) is printed.
    public var includesCallSite: Bool
    /// Whether newlines and carriage returns in the message and metadata are written as `\n` and `\r`.
    public var escapesNewlines: Bool

    /// Creates the standard formatter.
    public init(includesCallSite: Bool = true, escapesNewlines: Bool = false) {
        self.includesCallSite = includesCallSite
        self.escapesNewlines = escapesNewlines
    }

    /// Formats one record.
    public func format(_ record: LogRecord, revealingPrivate: Bool) -> String {
        let message = record.message.text(revealingPrivate: revealingPrivate)
        var line = ""
        line.reserveCapacity(48 + record.label.utf8.count + message.utf8.count + record.metadata.count * 16)
        line += RFC3339Timestamp.string(from: record.timestamp)
        line += " "
        line += record.level.description
        line += " ["
        line += record.label
        line += "] "
        if includesCallSite {
            record.fileID.withUTF8Buffer { line += String(decoding: $0, as: UTF8.self) }
            line += ":"
            line += String(record.line)
            line += " "
        }
        line += escapesNewlines ? Self.escapingNewlines(message) : message
        if !record.metadata.isEmpty {
            for key in record.metadata.keys.sorted() {
                line += " "
                line += key
                line += "="
                var value = ""
                record.metadata[key]?.render(into: &value, revealingPrivate: revealingPrivate)
                line += escapesNewlines ? Self.escapingNewlines(value) : value
            }
        }
        return line
    }

    static func escapingNewlines(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
            return text
        }
        return text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }
}
