import Foundation

/// Public-key pinning on every platform: reading ``TLSCredentials/publicKeyPins``, finding the
/// `SubjectPublicKeyInfo` in a server's DER certificate, and the verdict. Only hashing and reading the certificate
/// out of a `SecTrust` run on Apple platforms alone (``TLSSecurity``); CurlTransport hands the pins to libcurl.
enum PublicKeyPinning {
    /// The 32-byte digests `pins` name.
    /// - Throws: ``ResponseError/invalidRequest(reason:)`` naming the first pin (by position) that is not base64
    ///   of 32 bytes.
    static func digests(_ pins: [String]) throws(ResponseError) -> [Data] {
        var digests: [Data] = []
        for (index, pin) in pins.enumerated() {
            let text = pin.hasPrefix("sha256//") ? String(pin.dropFirst(8)) : pin
            guard let digest = Data(base64Encoded: text), digest.count == 32 else {
                throw .invalidRequest(
                    reason: "public-key pin \(index + 1) of \(pins.count) is not the base64 of a SHA-256 digest "
                        + "(44 characters)")
            }
            digests.append(digest)
        }
        return digests
    }

    /// libcurl's `CURLOPT_PINNEDPUBLICKEY` value for `digests`: `sha256//A;sha256//B`.
    static func curlOption(_ digests: [Data]) -> String {
        digests.map { "sha256//" + $0.base64EncodedString() }.joined(separator: ";")
    }

    /// Why the server at `host` fails its pins, or `nil` when the digest of its key (`keyDigest`, `nil` when its
    /// certificate could not be read) is one of `digests`.
    static func failure(host: String, keyDigest: Data?, digests: [Data]) -> String? {
        guard let keyDigest else { return "the server certificate of \(host) has no readable public key to pin" }
        if digests.contains(keyDigest) { return nil }
        return "the public key of \(host) matches none of the \(digests.count) pinned keys"
    }

    /// The DER `SubjectPublicKeyInfo` (tag and length included) of the X.509 certificate `der`, or `nil` when
    /// `der` is not one. Reads only within `der`: every length is checked against what is left.
    static func subjectPublicKeyInfo(inCertificate der: Data) -> Data? {
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
