public import Foundation

/// TLS settings for one request: extra trust anchors for the server, a client identity and public-key pins.
///
/// On Apple platforms ``URLSessionTransport`` evaluates the server's chain against ``anchorCertificates`` (and
/// its key against ``publicKeyPins``) and answers client-certificate challenges with ``clientIdentity``;
/// ``CurlTransport`` does the same on Linux. FoundationNetworking on Linux offers neither
/// per-request trust evaluation nor client identities, so there a request carrying credentials fails with
/// ``ResponseError/unsupported(feature:)`` before anything is sent, instead of silently ignoring them.
public struct TLSCredentials: Sendable, Hashable {
    /// A PKCS#12 archive holding the client's certificate and private key, and its password.
    public struct ClientIdentity: Sendable, Hashable {
        /// The `.p12` file's bytes.
        public var pkcs12: Data
        /// The archive's password; on ``CurlTransport`` a wrong one fails the request with a TLS error instead of
        /// connecting without a client certificate.
        public var password: String

        /// A client identity from a PKCS#12 archive.
        public init(pkcs12: Data, password: String) {
            self.pkcs12 = pkcs12
            self.password = password
        }
    }

    /// DER-encoded CA certificates the server's chain may end in.
    public var anchorCertificates: [Data]
    /// When `true`, only ``anchorCertificates`` are trusted; when `false`, the system's roots too.
    public var trustsOnlyAnchors: Bool
    /// The identity presented when the server asks for a client certificate.
    public var clientIdentity: ClientIdentity?
    /// Public-key pins: the server's own certificate (the leaf) must carry a key whose SHA-256 digest of its DER
    /// `SubjectPublicKeyInfo` is one of these, in base64 (44 characters, optionally prefixed `sha256//`), as
    /// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256
    /// -binary | base64` prints it. Any one matching is enough: list the current key and at least one backup key
    /// kept offline, so a key change does not lock the app out. The chain is still judged as usual (system roots
    /// or ``anchorCertificates``); pinning only narrows it.
    ///
    /// Enforced by ``CurlTransport`` (libcurl's `CURLOPT_PINNEDPUBLICKEY`) and by ``URLSessionTransport`` on Apple
    /// platforms (its trust evaluation); FoundationNetworking on Linux cannot see the server's key, so there a
    /// request with pins fails with ``ResponseError/unsupported(feature:)``. A pin that is not base64 of 32 bytes
    /// fails the request with ``ResponseError/invalidRequest(reason:)`` before anything is sent; a server whose
    /// key matches none fails it with ``ResponseError/transport(url:code:reason:)``, code
    /// `URLError.serverCertificateUntrusted`, on both transports.
    public var publicKeyPins: [String]

    /// TLS credentials; every part is optional.
    public init(
        anchorCertificates: [Data] = [], trustsOnlyAnchors: Bool = true, clientIdentity: ClientIdentity? = nil,
        publicKeyPins: [String] = []
    ) {
        self.anchorCertificates = anchorCertificates
        self.trustsOnlyAnchors = trustsOnlyAnchors
        self.clientIdentity = clientIdentity
        self.publicKeyPins = publicKeyPins
    }
}
