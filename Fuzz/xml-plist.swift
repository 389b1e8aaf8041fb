import Foundation
import GirdersSupport

@testable import GirdersConfig

/// libFuzzer entry: any bytes as an XML property list, then as a configuration layer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPropertyList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard PropertyListFormat(of: bytes) == .xml else { return 0 }
    if let configuration = try? Configuration(baseData: bytes) {
        _ = configuration.description
    }
    return 0
}
