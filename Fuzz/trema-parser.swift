import Foundation
import GirdersSupport

@testable import GirdersTrema

/// libFuzzer entry: any bytes as a trema file; what parses is linted and exported to every format, and to Swift
/// with the tables compiled in (what the build plugin generates). Valid UTF-8 is read in one piece and in two to
/// four parts (as large files are): the document with every location, or the error, must be the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTremaParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if ValidatedText.utf8(Array(bytes)) != nil {
        let whole = readingInParts(Array(bytes), parts: 1)
        for parts in 2...4 where readingInParts(Array(bytes), parts: parts) != whole {
            fatalError("\(parts) parts read differently from one piece")
        }
    }
    guard let document = try? TremaDocument(data: bytes, file: "fuzz.trm") else { return 0 }
    _ = TremaLinter.lint(document)
    _ = try? document.export(TremaExportFormat.allCases)
    _ = SwiftEmbeddedTables.export(document, options: ExportOptions(embedsTables: true))
    return 0
}

/// The document read in `parts` parts with every text's and value's location, or the error.
private func readingInParts(_ utf8: [UInt8], parts: Int) -> String {
    do {
        let document = try TremaDocument(utf8: utf8, file: "fuzz.trm", parts: parts)
        return "\(document.masterLanguage) \(String(describing: document.schemaLocation)) "
            + document.texts.map { text in
                "\(text.key)|\(text.context)|\(String(describing: text.location))|"
                    + text.values.map { "\($0) \(String(describing: $0.location))" }.joined(separator: "|")
            }.joined(separator: "\n")
    } catch {
        return "\(error)"
    }
}
