import Foundation

/// libFuzzer entry: any bytes as the DER certificate a server presents, read for its `SubjectPublicKeyInfo` (the
/// key a public-key pin names). Reading never traps or reads outside the input, and a key it finds is a DER
/// SEQUENCE lying wholly inside the input, whose own length field covers it exactly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificateKey(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let der = Data(UnsafeBufferPointer(start: data, count: size))
    guard let key = DERCertificate.subjectPublicKeyInfo(in: der) else { return 0 }
    let bytes = [UInt8](key)
    guard bytes.count >= 2, bytes[0] == 0x30, key.count <= der.count else { fatalError("not a SEQUENCE: \(bytes)") }
    var length = Int(bytes[1])
    var header = 2
    if length >= 0x80 {
        let count = length & 0x7F
        guard count >= 1, count <= 4, bytes.count >= 2 + count else { fatalError("a bad length form") }
        length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        header += count
    }
    if header + length != bytes.count { fatalError("the key's length field says \(length), it has \(bytes.count)") }
    return 0
}
