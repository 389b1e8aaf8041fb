import Foundation

/// libFuzzer entry: any bytes as a trema file; what parses is linted and exported to every format, and to Swift
/// with the tables compiled in (what the build plugin generates).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTremaParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? TremaDocument(data: bytes, file: "fuzz.trm") else { return 0 }
    _ = TremaLinter.lint(document)
    _ = try? document.export(TremaExportFormat.allCases)
    _ = SwiftEmbeddedTables.export(document, options: ExportOptions(embedsTables: true))
    return 0
}
