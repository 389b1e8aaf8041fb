import Foundation

/// The Security calls that answering a TLS challenge needs, and nothing else: `SystemTLSSecurity` on Apple
/// platforms, a fake in the Linux tests. Every decision around them lives in ``TLSChallengeAnswer``.
protocol TLSSecurity: Sendable {
    /// `SecTrust`: the server's chain, as the challenge carries it.
    associatedtype Trust
    /// `SecCertificate`: one parsed anchor.
    associatedtype Certificate
    /// `SecIdentity`: an imported client identity.
    associatedtype Identity

    /// The `NSURLAuthenticationMethod…` strings of the two challenges it answers (FoundationNetworking declares
    /// neither: it never delivers them).
    var methods: (serverTrust: String, clientCertificate: String) { get }
    /// `SecCertificateCreateWithData`: one DER-encoded X.509 certificate, or `nil` when it is not one.
    func certificate(_ der: Data) -> Certificate?
    /// Judges `trust` against `anchors` (and the system's roots unless `anchorsOnly`): whether it passed, and the
    /// system's reason when it did not.
    func evaluate(_ trust: Trust, anchors: [Certificate], anchorsOnly: Bool) -> (trusted: Bool, reason: String?)
    /// `SecTrustCopyCertificateChain` and `SecCertificateCopyData`: the server's own certificate (the leaf), DER.
    func leafCertificate(_ trust: Trust) -> Data?
    /// CryptoKit's `SHA256`, for public-key pins.
    func sha256(_ data: Data) -> Data
    /// `SecPKCS12Import` of one archive (``IdentityCache`` calls it once per archive and transport).
    func importIdentity(
        _ archive: TLSCredentials.ClientIdentity
    ) -> Result<Identity, IdentityCache<Identity>.ImportFailure>
}
