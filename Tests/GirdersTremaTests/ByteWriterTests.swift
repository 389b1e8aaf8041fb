import Foundation
import Testing

@testable import GirdersTrema

/// `ByteWriter` keeps its bytes in raw memory it grows itself; these tests write past every capacity, from
/// the smallest, and compare with an array built beside it.
struct ByteWriterTests {
    @Test(arguments: [0, 1, 16, 17, 100, 4096])
    func writesPastEveryCapacityKeepEveryByteInOrder(capacity: Int) {
        var writer = ByteWriter(capacity: capacity)
        var expected: [UInt8] = []
        let table = EscapeTable([UInt8(ascii: "\""): "\\\"", 0x0A: "\\n"], controlPrefix: "\\u")
        var generator = SystemRandomNumberGenerator()
        let pieces = ["", "a", "é", "日本", "🙂", "\"quoted\"\n", String(repeating: "x", count: 1000), "\u{1}"]
        for step in 0..<2_000 {
            let piece = pieces.randomElement(using: &generator) ?? ""
            switch step % 3 {
            case 0:
                writer.write(piece)
                expected += piece.utf8
            case 1:
                let byte = UInt8.random(in: 0...255, using: &generator)
                writer.write(byte)
                expected.append(byte)
            default:
                writer.write(piece, escaping: table)
                for byte in piece.utf8 {
                    switch byte {
                    case UInt8(ascii: "\""): expected += Array("\\\"".utf8)
                    case 0x0A: expected += Array("\\n".utf8)
                    case 0x01: expected += Array("\\u0001".utf8)
                    default: expected.append(byte)
                    }
                }
            }
            #expect(writer.count == expected.count)
        }
        #expect(writer.bytes == expected)
        #expect(writer.data == Data(expected))
    }

    /// Every one of the 256 byte values, alone and between plain bytes, is replaced exactly when the table has a
    /// replacement for it: the ASCII bytes on both sides of 64 (where a two-word mask once split them), DEL, and
    /// the bytes of multi-byte characters (0x80 and above), which are always copied.
    @Test func everyByteValueIsReplacedExactlyWhenTheTableHasAReplacement() {
        let explicit: [UInt8: String] = [
            0x22: "\\\"", 0x3F: "\\?", 0x40: "\\@", 0x7E: "~~", 0x7F: "DEL", 0xC3: "never",
        ]
        let table = EscapeTable(explicit, controlPrefix: "\\u")
        for value in 0...255 {
            let byte = UInt8(value)
            let replacement: [UInt8] =
                if byte >= 0x80 {
                    [byte]
                } else if let explicit = explicit[byte] {
                    Array(explicit.utf8)
                } else if byte < 0x20 {
                    Array(String(format: "\\u%04X", value).utf8)
                } else {
                    [byte]
                }
            var writer = ByteWriter(capacity: 16)
            [UInt8(ascii: "a"), byte, UInt8(ascii: "b"), byte].withUnsafeBufferPointer {
                writer.write($0, escaping: table)
            }
            #expect(
                writer.bytes == [UInt8(ascii: "a")] + replacement + [UInt8(ascii: "b")] + replacement, "byte \(value)")
        }
    }

    /// `takeData()` hands the writer's memory to the `Data`: the bytes must stay whole after the writer is gone and
    /// other writers have allocated and freed memory of the same sizes (freed twice or too early, they would not).
    @Test(arguments: [0, 1, 15, 16, 5_000, 1 << 20])
    func takenDataOutlivesItsWriterWithEveryByte(size: Int) {
        let expected = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let taken: Data = {
            var writer = ByteWriter(capacity: 16)
            expected.withUnsafeBufferPointer { writer.write($0) }
            return writer.takeData()
        }()
        for _ in 0..<8 {
            var other = ByteWriter(capacity: 16)
            for _ in 0..<size / 64 + 1 { other.write(String(repeating: "z", count: 64)) }
            #expect(other.count >= size)
        }
        #expect(taken == Data(expected))
    }

    /// Exports start with room for what they will write (growing a buffer copies it, and touches its pages twice),
    /// within bounds whatever the document: an empty one gets 4 KiB, and no estimate passes 1 GiB.
    @Test func exportsStartWithRoomForWhatTheyWrite() throws {
        let body = (0..<300).map { index in
            """
            <text key="screen.\(index).title"><context>Shown on screen \(index)</context>
            <value lang="de" status="verified">Hallo %1$@, du hast %2$d neue &amp; ungelesene "Nachrichten"\\n</value>
            <value lang="en" status="verified">Hello %1$@, you have %2$d new &amp; unread "messages"\\n</value>
            <value lang="fr" status="verified">Bonjour %1$@, vous avez %2$d nouveaux messages</value></text>
            """
        }.joined(separator: "\n")
        let document = try parse(tremaXML(body))
        let files: [(Int, [ExportedFile])] = [
            (
                document.exportCapacity(languages: 3, perText: StringCatalogExporter.markupPerText),
                try StringCatalogExporter.export(document)
            ),
            (
                document.exportCapacity(languages: 1, perText: SwiftSourceExporter.markupPerText),
                SwiftSourceExporter.export(document)
            ),
            (
                document.exportCapacity(languages: 1, perText: AndroidExporter.markupPerText),
                try AndroidExporter.export(document)
            ),
            (
                document.exportCapacity(languages: 1, perText: StringsExporter.markupPerText),
                StringsExporter.export(document)
            ),
        ]
        for (capacity, exported) in files {
            for file in exported {
                #expect(file.data.count <= capacity, "\(file.path): \(file.data.count) > \(capacity)")
            }
        }
        #expect(TremaDocument(masterLanguage: "de", texts: []).exportCapacity(languages: 4, perText: 160) == 1 << 12)
        #expect(document.exportCapacity(languages: Int.max, perText: Int.max) == 1 << 30)
    }

    /// The Android exporter makes placeholders positional and escapes the result in one go, without a string in
    /// between: it must write what escaping the positional string writes, at both ends and inside.
    @Test func androidPositionalEscapingInOneGoWritesWhatTheTwoStepsWrite() {
        let pieces = [
            "%d", "%@", "%1$s", "%%", "%.2f", "%", " ", "  ", "@", "?", "\"", "'", "&", "<", "é", "日本", "\u{FFFE}",
            "\u{FFFF}", "\n", "x", "%lld",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                pieces.randomElement(using: &generator) ?? ""
            }.joined()
            var writer = ByteWriter(capacity: 16)
            AndroidExporter.writePositionalEscaped(text, to: &writer)
            #expect(
                writer.bytes == Array(AndroidExporter.escape(AndroidExporter.positional(text)).utf8),
                "\(text.debugDescription)")
        }
    }
}
