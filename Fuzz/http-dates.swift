import Foundation

/// libFuzzer entry: any text as an HTTP date and an RFC 3339 timestamp; what parses must format and parse back,
/// and the strict modes accept a subset of the lenient ones, with the same dates.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPDates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let date = HTTPDate.parse(text), HTTPDate.parse(HTTPDate.string(from: date)) == nil {
        fatalError("an accepted HTTP date does not round-trip: \(text.debugDescription)")
    }
    if let strict = HTTPDate.parse(text, checksWeekday: true), strict != HTTPDate.parse(text) {
        fatalError("the weekday check changed a date: \(text.debugDescription)")
    }
    if let strict = RFC3339Date.parse(text), strict != RFC3339Date.parse(text, acceptingGirdersSwiftForms: true) {
        fatalError("GirdersSwift's forms changed an RFC 3339 date: \(text.debugDescription)")
    }
    return 0
}
