import Foundation

@testable import GirdersTrema

/// libFuzzer entry: any bytes as a `.strings` file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStringsReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? StringsFileReader.read(Data(UnsafeBufferPointer(start: data, count: size)), path: "fuzz.strings")
    return 0
}
