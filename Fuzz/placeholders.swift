import Foundation

@testable import GirdersTrema

/// libFuzzer entry: any text as a translation, formatted with arguments of every kind.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaceholders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = PrintfPlaceholder.argumentKinds(text)
    _ = PrintfPlaceholder.problems(in: text)
    _ = AndroidExporter.positional(text)
    let arguments: [any CVarArg] = [42, "text", 2.5, Int64.min, UInt64.max, Float(1), -1, "%@%s%d"]
    _ = PlaceholderFormatter.format(text, decimalSeparator: ",", arguments: arguments)
    _ = PlaceholderFormatter.format(text, decimalSeparator: ".", arguments: [])
    return 0
}
