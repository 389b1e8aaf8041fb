/// One language's text for a key.
///
/// ``text`` is exactly what the file holds (after XML entities are resolved). Trema values are escaped text:
/// ``meaning(readingEscapes:)`` turns `\n`, `\t`, `\r`, `\\`, `\"` and `\'` into the characters they stand for,
/// which is what every exporter writes.
public struct TremaValue: Sendable, CustomStringConvertible {
    /// The language code, for example `de` or `pt-BR`.
    public var language: String
    /// The review state.
    public var status: TremaStatus
    /// The text as written in the file.
    public var text: String
    /// Where the `<value>` element starts, when parsed from a file.
    public var location: SourceLocation?

    /// A value.
    public init(language: String, status: TremaStatus, text: String, location: SourceLocation? = nil) {
        self.language = language
        self.status = status
        self.text = text
        self.location = location
    }

    /// The text the user sees: escapes read (the default), or the raw text when `readingEscapes` is `false`.
    public func meaning(readingEscapes: Bool = true) -> String {
        readingEscapes ? TremaEscapes.read(text) : text
    }

    /// `lang [status]: text`.
    public var description: String { "\(language) [\(status)]: \(text)" }
}

extension TremaValue: Equatable {
    /// Equal when language, status and text are; the location is not compared.
    public static func == (lhs: TremaValue, rhs: TremaValue) -> Bool {
        lhs.language == rhs.language && lhs.status == rhs.status && lhs.text == rhs.text
    }
}

/// The escapes translators type in trema values (see `../notes/trema-values.md` in the design notes).
public enum TremaEscapes {
    /// `\n`, `\t`, `\r` become newline, tab and carriage return; `\\`, `\"`, `\'` a backslash and quotes; a
    /// backslash before anything else (as in `C:\Users`) stays a literal backslash.
    public static func read(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingBackslash = false
        for character in text {
            if pendingBackslash {
                pendingBackslash = false
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\\", "\"", "'": result.append(character)
                default:
                    result.append("\\")
                    result.append(character)
                }
            } else if character == "\\" {
                pendingBackslash = true
            } else {
                result.append(character)
            }
        }
        if pendingBackslash { result.append("\\") }
        return result
    }
}
