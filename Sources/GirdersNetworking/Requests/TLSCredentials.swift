public import Foundation

/// TLS settings for one request: extra trust anchors for the server and a client identity.
///
/// On Apple platforms ``URLSessionTransport`` evaluates the server's chain against ``anchorCertificates`` and
/// answers client-certificate challenges with ``clientIdentity``. FoundationNetworking on Linux offers neither
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

    /// TLS credentials; every part is optional.
    public init(anchorCertificates: [Data] = [], trustsOnlyAnchors: Bool = true, clientIdentity: ClientIdentity? = nil)
    {
        self.anchorCertificates = anchorCertificates
        self.trustsOnlyAnchors = trustsOnlyAnchors
        self.clientIdentity = clientIdentity
    }
}
