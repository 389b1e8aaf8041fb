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

    /// Appends the UTF-8 bytes of the formatted line to `buffer`. Destinations call this; the default
    /// implementation appends ``format(_:revealingPrivate:)``, formatters on hot paths write bytes directly.
    func format(_ record: LogRecord, revealingPrivate: Bool, into buffer: inout [UInt8])
}

extension LogFormatter {
    /// Appends the UTF-8 bytes of ``format(_:revealingPrivate:)``.
    public func format(_ record: LogRecord, revealingPrivate: Bool, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: format(record, revealingPrivate: revealingPrivate).utf8)
    }
}

/// The standard line format:
/// `2026-11-22T13:30:56.123Z WARNING [label] Module/File.swift:42 message key=value other=value`.
///
/// The timestamp is RFC 3339 in UTC with milliseconds; metadata is sorted by key.
///
/// Every record is exactly one line, whatever it carries: in the label, the message, metadata keys and values,
/// a line feed, carriage return and tab are written as `\n`, `\r` and `\t`, every other C0 control, DEL, C1
/// control (NEL among them), U+2028 and U+2029 as `\u{1B}`, and a backslash as `\\`, so a logged value can
/// neither forge a second record nor send control sequences to a terminal, and an escaped newline differs from a
/// literal `\n`. For trusted output, ``allowsMultilineMessages`` writes the message (only the message) raw.
public struct DefaultLogFormatter: LogFormatter {
    /// Whether the call site (`file:line`) is printed.
    public var includesCallSite: Bool
    /// Whether the message is written as it is, line breaks and control characters included. Only for messages
    /// that never carry outside input; labels and metadata are escaped regardless.
    public var allowsMultilineMessages: Bool

    /// Creates the standard formatter.
    public init(includesCallSite: Bool = true, allowsMultilineMessages: Bool = false) {
        self.includesCallSite = includesCallSite
        self.allowsMultilineMessages = allowsMultilineMessages
    }

    /// Formats one record.
    public func format(_ record: LogRecord, revealingPrivate: Bool) -> String {
        var bytes: [UInt8] = []
        format(record, revealingPrivate: revealingPrivate, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one formatted record as UTF-8, without building intermediate strings.
    public func format(_ record: LogRecord, revealingPrivate: Bool, into buffer: inout [UInt8]) {
        if buffer.isEmpty {
            buffer.reserveCapacity(64 + record.label.utf8.count + record.message.revealedText.utf8.count)
        }
        RFC3339Timestamp.append(record.timestamp, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        appendUTF8(record.level.description, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        buffer.append(UInt8(ascii: "["))
        LogEscaping.append(record.label, to: &buffer)
        buffer.append(UInt8(ascii: "]"))
        buffer.append(UInt8(ascii: " "))
        if includesCallSite {
            record.appendFile(to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            appendUTF8(String(record.line), to: &buffer)
            buffer.append(UInt8(ascii: " "))
        }
        let message = record.message.text(revealingPrivate: revealingPrivate)
        if allowsMultilineMessages {
            appendUTF8(message, to: &buffer)
        } else {
            LogEscaping.append(message, to: &buffer)
        }
        switch record.metadata.count {
        case 0:
            break
        case 1:
            for (key, value) in record.metadata {
                append(key, value, revealingPrivate: revealingPrivate, to: &buffer)
            }
        default:
            for key in record.metadata.keys.sorted() {
                if let value = record.metadata[key] {
                    append(key, value, revealingPrivate: revealingPrivate, to: &buffer)
                }
            }
        }
    }

    private func append(
        _ key: String, _ value: LogMetadataValue, revealingPrivate: Bool, to buffer: inout [UInt8]
    ) {
        buffer.append(UInt8(ascii: " "))
        LogEscaping.append(key, to: &buffer)
        buffer.append(UInt8(ascii: "="))
        if case .string(let text) = value {
            LogEscaping.append(text, to: &buffer)
        } else {
            LogEscaping.append(value.rendered(revealingPrivate: revealingPrivate), to: &buffer)
        }
    }
}

/// Appends a string's UTF-8 bytes with one copy from its contiguous storage.
@inline(__always)
func appendUTF8(_ text: String, to buffer: inout [UInt8]) {
    var text = text
    text.withUTF8 { buffer.append(contentsOf: $0) }
}
