import Foundation

/// Just enough of X.509's DER encoding to find a certificate's `SubjectPublicKeyInfo`, the bytes a public-key pin
/// is the SHA-256 of. The certificate comes from the server: every length is checked against what is left, and
/// anything DER forbids is no certificate.
enum DERCertificate {
    /// The DER `SubjectPublicKeyInfo` (tag and length included) of the X.509 certificate `der`, or `nil` when
    /// `der` is not one. Reads only within `der`: every length is checked against what is left.
    static func subjectPublicKeyInfo(in der: Data) -> Data? {
        let bytes = [UInt8](der)
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber, signature,
        //   issuer, validity, subject, subjectPublicKeyInfo, ... }, ... }
        guard let certificate = element(bytes, at: 0), certificate.tag == 0x30,
            let tbs = element(bytes, at: certificate.contentStart), tbs.tag == 0x30
        else { return nil }
        var cursor = tbs.contentStart
        var index = 0
        while cursor < tbs.end, let field = element(bytes, at: cursor), field.end <= tbs.end {
            if index == 0 && field.tag == 0xA0 {  // the explicit version does not count
                cursor = field.end
                continue
            }
            if index == 5 {
                guard field.tag == 0x30 else { return nil }
                return Data(bytes[cursor..<field.end])
            }
            index += 1
            cursor = field.end
        }
        return nil
    }

    /// One DER element at `offset`: its tag, where its content starts and where it ends; `nil` when it does not
    /// fit in `bytes` or uses a form DER forbids (indefinite or over-long lengths, multi-byte tags).
    private static func element(_ bytes: [UInt8], at offset: Int) -> (tag: UInt8, contentStart: Int, end: Int)? {
        guard offset >= 0, offset + 2 <= bytes.count, bytes[offset] & 0x1F != 0x1F else { return nil }
        let tag = bytes[offset]
        let first = Int(bytes[offset + 1])
        var length = 0
        var start = offset + 2
        if first < 0x80 {
            length = first
        } else {
            let count = first & 0x7F
            guard count >= 1, count <= 4, start + count <= bytes.count else { return nil }
            for byte in bytes[start..<start + count] { length = length << 8 | Int(byte) }
            start += count
        }
        guard length <= bytes.count - start else { return nil }
        return (tag, start, start + length)
    }
}
