import Foundation
import GirdersSupport

@testable import GirdersConfig

/// libFuzzer entry: any bytes as a binary property list, then as a configuration layer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPropertyList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    _ = try? BinaryPropertyListReader.parse(bytes)
    if bytes.starts(with: Array("bplist".utf8)), let configuration = try? Configuration(baseData: bytes) {
        _ = configuration.description
    }
    return 0
}
