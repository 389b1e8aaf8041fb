import Foundation  // memchr and memcmp, on every platform

/// Strings from bytes or UTF-16 units that must be valid as they are: no replacement characters, ever.
///
/// The standard library's `String.init(validating:as:)` does this, but needs macOS 15 / iOS 18 / tvOS 18 / watchOS 11, above the package's
/// floor. This is one portable implementation for every platform, so the code a Linux test runs is the code an
/// iPhone runs: `String(decoding:as:)` (fast, and replaces every ill-formed sequence with U+FFFD) followed by a
/// comparison with the input. A replacement always changes the encoded form (U+FFFD is `EF BF BD` in UTF-8 and
/// `FFFD` in UTF-16, which can stand in for no ill-formed sequence), so equality means the input was valid.
package enum ValidatedText {
    /// The string `bytes` encode in UTF-8, or `nil` when they are not valid UTF-8 (overlong forms, surrogates,
    /// truncated sequences, bytes above `F4` included).
    package static func utf8<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// ``utf8(_:)`` for an array, compiled for it: the generic form, called from another module, runs unspecialized
    /// (a 10 MB trema file spent a third of its conversion there).
    package static func utf8(_ bytes: [UInt8]) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        text.makeContiguousUTF8()
        let equal = text.utf8.withContiguousStorageIfAvailable { decoded in
            bytes.withUnsafeBufferPointer { original in
                guard decoded.count == original.count else { return false }
                guard let left = decoded.baseAddress, let right = original.baseAddress else { return true }
                return memcmp(left, right, original.count) == 0
            }
        }
        return (equal ?? text.utf8.elementsEqual(bytes)) ? text : nil
    }

    /// The string `units` encode in UTF-16, or `nil` when a surrogate is unpaired.
    package static func utf16<Units: Collection>(_ units: Units) -> String? where Units.Element == UInt16 {
        let text = String(decoding: units, as: UTF16.self)
        return text.utf16.elementsEqual(units) ? text : nil
    }
}
