import Foundation

/// Public-key pinning on every platform: reading ``TLSCredentials/publicKeyPins``, finding the
/// `SubjectPublicKeyInfo` in a server's DER certificate (``DERCertificate``), and the verdict. Only hashing and reading the certificate
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
}
