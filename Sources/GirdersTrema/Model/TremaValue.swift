import GirdersSupport

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
    public var text: String {
        didSet { readMeaning = TremaEscapes.read(text) }
    }
    /// ``text`` with its escapes read, computed once.
    private var readMeaning: String
    /// Where the `<value>` element starts, when parsed from a file.
    public var location: SourceLocation?

    /// A value.
    public init(language: String, status: TremaStatus, text: String, location: SourceLocation? = nil) {
        self.language = language
        self.status = status
        self.text = text
        self.readMeaning = TremaEscapes.read(text)
        self.location = location
    }

    /// The text the user sees: escapes read (the default), or the raw text when `readingEscapes` is `false`.
    public func meaning(readingEscapes: Bool = true) -> String {
        readingEscapes ? readMeaning : text
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
        guard text.containsUTF8(UInt8(ascii: "\\")) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var pendingBackslash = false
        for byte in text.utf8 {
            if pendingBackslash {
                pendingBackslash = false
                switch byte {
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): result.append(byte)
                default:
                    result.append(UInt8(ascii: "\\"))
                    result.append(byte)
                }
            } else if byte == UInt8(ascii: "\\") {
                pendingBackslash = true
            } else {
                result.append(byte)
            }
        }
        if pendingBackslash { result.append(UInt8(ascii: "\\")) }
        return String(decoding: result, as: UTF8.self)
    }
}
