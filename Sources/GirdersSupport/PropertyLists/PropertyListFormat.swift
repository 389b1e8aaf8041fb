package import Foundation

/// What kind of property list some bytes are, from their first bytes alone.
package enum PropertyListFormat: Sendable, Equatable {
    /// `bplist00`: read by ``BinaryPropertyListReader``.
    case binary
    /// Starts with `<` after an optional UTF-8 byte-order mark and white space: read by ``XMLPropertyListParser``.
    case xml
    /// Anything else: an old-style (OpenStep) text property list, or a `.strings` file.
    case text

    /// The format of `data`.
    package init(of data: Data) {
        if data.starts(with: Array("bplist".utf8)) {
            self = .binary
            return
        }
        let first = data.drop(while: {
            $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09
        }).first
        self = first == UInt8(ascii: "<") ? .xml : .text
    }
}
