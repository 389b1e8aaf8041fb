#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation

/// ``TLSCredentials`` for libcurl: trust anchors as PEM, a client identity as a PKCS#12 blob with its password,
/// public-key pins as `CURLOPT_PINNEDPUBLICKEY`.
/// Verification of the server's certificate and host name stays on (libcurl's default).
enum CurlTLS {
    /// The system's CA bundle on Debian and its derivatives, added to the anchors when they do not stand alone.
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    static func configure(
        _ easy: UnsafeMutableRawPointer, _ credentials: TLSCredentials?, _ code: inout CURLcode
    ) throws(ResponseError) {
        guard let credentials, code == CURLE_OK else { return }
        if !credentials.anchorCertificates.isEmpty {
            var pem = Data()
            if !credentials.trustsOnlyAnchors, let system = FileManager.default.contents(atPath: systemBundle) {
                pem.append(system)
                pem.append(UInt8(ascii: "\n"))
            }
            for der in credentials.anchorCertificates { pem.append(Self.pem(der)) }
            code = pem.withUnsafeMutableBytes {
                girders_easy_set_blob(easy, CURLOPT_CAINFO_BLOB, $0.baseAddress, $0.count)
            }
        }
        if let identity = credentials.clientIdentity, code == CURLE_OK {
            var archive = identity.pkcs12
            code = archive.withUnsafeMutableBytes {
                girders_easy_set_blob(easy, CURLOPT_SSLCERT_BLOB, $0.baseAddress, $0.count)
            }
            if code == CURLE_OK { code = girders_easy_set_string(easy, CURLOPT_SSLCERTTYPE, "P12") }
            if code == CURLE_OK { code = girders_easy_set_string(easy, CURLOPT_KEYPASSWD, identity.password) }
        }
        if !credentials.publicKeyPins.isEmpty, code == CURLE_OK {
            // Checked against the leaf's key after libcurl verified the chain; a mismatch is
            // CURLE_SSL_PINNEDPUBKEYNOTMATCH (see CurlTransfer+Errors).
            let option = PublicKeyPinning.curlOption(try PublicKeyPinning.digests(credentials.publicKeyPins))
            code = girders_easy_set_string(easy, CURLOPT_PINNEDPUBLICKEY, option)
        }
    }

    /// A DER certificate as PEM.
    static func pem(_ der: Data) -> Data {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return Data("-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n".utf8)
    }
}
#endif
