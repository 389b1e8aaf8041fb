import Foundation

/// Key names and passphrases compare by their Unicode canonical form: "café" precomposed (U+00E9) and decomposed
/// (e + U+0301) are the same item in every store, as Swift's `String` equality already treats them.
enum KeyName {
    /// `text` in Unicode Normalization Form C; ASCII text is returned as it is, without any work.
    static func canonical(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return text.precomposedStringWithCanonicalMapping
    }
}
