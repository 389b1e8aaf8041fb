import Foundation

/// libFuzzer entry: any bytes as a server's answer to a WebSocket's opening handshake, read over libcurl's
/// connect-only connection (its first byte sets the limits). Reading never traps; a head is found at the same
/// length whether the bytes come whole or one more at a time; a head's status is three digits, its fields within
/// the limit and its length within the bytes and the byte limit; bytes past the limit are an error, never a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUpgradeHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    var limits = ResponseLimits.standard
    limits.headerFields = Int(data[0] & 0x0F) + 1
    limits.headerBytes = Int(data[0] >> 4) * 64 + 32
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let whole = Result { () throws(UpgradeResponseHead.Problem) in try UpgradeResponseHead.parse(bytes, limits: limits)
    }
    var grown: Result<UpgradeResponseHead?, UpgradeResponseHead.Problem> = .success(nil)
    for end in 0...bytes.count {
        grown = Result { () throws(UpgradeResponseHead.Problem) in
            try UpgradeResponseHead.parse(Array(bytes[..<end]), limits: limits)
        }
        if case .success(nil) = grown { continue }
        break
    }
    switch (whole, grown) {
    case (.success(let head?), .success(let early?)):
        guard head == early else { fatalError("whole \(head), one byte at a time \(early)") }
        guard (100...999).contains(head.status), head.length <= bytes.count, head.length <= limits.headerBytes,
            head.fieldCount <= limits.headerFields
        else { fatalError("a head out of bounds: \(head)") }
    case (.success(nil), .success(nil)):
        guard bytes.count <= limits.headerBytes else { fatalError("\(bytes.count) bytes past the limit, no error") }
    case (.failure, .failure):
        break
    default:
        // A head whole may be an error in part only when the error is the limit of bytes the part already passed.
        if case (.success(_?), .failure(.limit(.headerBytes, _))) = (whole, grown) {
            fatalError("a whole head refused for its size in part")
        }
        if case (.failure, .success(_?)) = (whole, grown) {
            return 0  // a head found early, and later bytes (after it) are never read: both are right
        }
        fatalError("whole \(whole), one byte at a time \(grown)")
    }
    return 0
}
