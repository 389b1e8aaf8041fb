import Foundation

/// libFuzzer entry: any text as an HTTP date and an RFC 3339 timestamp; what parses must format and parse back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPDates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let date = HTTPDate.parse(text), HTTPDate.parse(HTTPDate.string(from: date)) == nil {
        fatalError("an accepted HTTP date does not round-trip: \(text.debugDescription)")
    }
    _ = RFC3339Date.parse(text)
    return 0
}
