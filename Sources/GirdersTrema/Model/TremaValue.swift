import GirdersSupport

/// One language's text for a key.
///
/// ``text`` is exactly what the file holds (after XML entities are resolved). Trema values are escaped text:
/// ``meaning(readingEscapes:)`` turns `\n`, `\t`, `\r`, `\\`, `\"` and `\'` into the characters they stand for,
/// which is what every exporter writes.
public struct TremaValue: Sendable, CustomStringConvertible {
    /// The value's strings, behind one reference: exporters and lint pass values around by the hundred
    /// thousand, and a copy then retains one object instead of four strings. Never changed once made; a setter
    /// makes a new one.
    private final class Storage: Sendable {
        let language: String
        let text: String
        /// ``text`` with its escapes read, computed once.
        let meaning: String
        let location: SourceLocation?

        init(language: String, text: String, meaning: String, location: SourceLocation?) {
            self.language = language
            self.text = text
            self.meaning = meaning
            self.location = location
        }
    }

    private var storage: Storage

    /// The language code, for example `de` or `pt-BR`.
    public var language: String {
        get { storage.language }
        set {
            storage = Storage(language: newValue, text: storage.text, meaning: storage.meaning, location: location)
        }
    }
    /// The review state.
    public var status: TremaStatus
    /// The text as written in the file.
    public var text: String {
        get { storage.text }
        set {
            storage = Storage(
                language: language, text: newValue, meaning: TremaEscapes.read(newValue), location: location)
        }
    }
    /// Where the `<value>` element starts, when parsed from a file.
    public var location: SourceLocation? {
        get { storage.location }
        set { storage = Storage(language: language, text: text, meaning: storage.meaning, location: newValue) }
    }

    /// A value.
    public init(language: String, status: TremaStatus, text: String, location: SourceLocation? = nil) {
        storage = Storage(language: language, text: text, meaning: TremaEscapes.read(text), location: location)
        self.status = status
    }

    /// The text the user sees: escapes read (the default), or the raw text when `readingEscapes` is `false`.
    public func meaning(readingEscapes: Bool = true) -> String {
        readingEscapes ? storage.meaning : storage.text
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
        // Runs between backslashes are copied whole, from contiguous bytes when the string has them.
        func read(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var start = 0
            while let backslash = bytes[start...].firstIndex(of: UInt8(ascii: "\\")) {
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<backslash]))
                guard backslash + 1 < bytes.count else {
                    result.append(UInt8(ascii: "\\"))  // a backslash at the end stays
                    return result
                }
                let byte = bytes[backslash + 1]
                switch byte {
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): result.append(byte)
                default:
                    result.append(UInt8(ascii: "\\"))
                    result.append(byte)
                }
                start = backslash + 2
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            return result
        }
        let result = text.utf8.withContiguousStorageIfAvailable(read) ?? Array(text.utf8).withUnsafeBufferPointer(read)
        return String(decoding: result, as: UTF8.self)
    }
}
