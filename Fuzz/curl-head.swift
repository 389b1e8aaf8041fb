import Foundation

/// libFuzzer entry: any bytes as the field lines of a response head, as CurlTransport keeps them. Parsing never
/// traps and yields at most one field per line; the engine's byte-level lookups agree with the parsed fields (a
/// name is found exactly when a field of that name is parsed, an unfolded value is the parsed one), and a length
/// is read only from digits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCurlHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let fields = CurlHead.fields(in: bytes)
    let lines = bytes.split(separator: 0x0A).count
    if fields.count > lines { fatalError("\(fields.count) fields from \(lines) lines") }
    let head = CurlHead(bytes)
    for name in ["content-length", "content-encoding", "set-cookie"] {
        let found = head.field(name)
        let parsed = fields.first { HTTPHeaders.same($0.name, name) }
        let foundText = found.map { String(decoding: $0.bytes, as: UTF8.self) }
        if (found == nil) != (parsed == nil) {
            fatalError("\(name): found \(String(describing: foundText)), parsed \(String(describing: parsed?.value))")
        }
        if let found, let parsed, !found.folded, foundText != parsed.value {
            fatalError("\(name): found \(String(describing: foundText)), parsed \(parsed.value.debugDescription)")
        }
        if let found, let integer = found.integer {
            guard found.bytes.allSatisfy({ (0x30...0x39).contains($0) }), let text = foundText, Int64(text) == integer
            else { fatalError("\(name): \(integer) is not the digits \(String(describing: foundText))") }
        }
    }
    return 0
}
