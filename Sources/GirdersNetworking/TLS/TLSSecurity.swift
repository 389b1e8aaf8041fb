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
    /// `URLCredential`: what the delegate hands URLSession.
    associatedtype Credential

    /// `SecCertificateCreateWithData`: one DER-encoded X.509 certificate, or `nil` when it is not one.
    func certificate(_ der: Data) -> Certificate?
    /// Judges `trust` against `anchors` (and the system's roots unless `anchorsOnly`): whether it passed, and the
    /// system's reason when it did not.
    func evaluate(_ trust: Trust, anchors: [Certificate], anchorsOnly: Bool) -> (trusted: Bool, reason: String?)
    /// `SecTrustCopyCertificateChain` and `SecCertificateCopyData`: the server's own certificate (the leaf), DER.
    func leafCertificate(_ trust: Trust) -> Data?
    /// CryptoKit's `SHA256`, for public-key pins.
    func sha256(_ data: Data) -> Data
    /// `SecPKCS12Import` of one archive: its status, and the identity of its first item if that is one.
    func importPKCS12(_ archive: Data, password: String) -> (status: Int32, identity: Identity?)
    /// `URLCredential(trust:)`.
    func credential(trusting trust: Trust) -> Credential
    /// `URLCredential(identity:certificates:persistence:)` with no extra certificates, for this session
    /// (``IdentityCache`` keeps the identity, so nothing needs persisting).
    func credential(presenting identity: Identity) -> Credential
}

extension TLSSecurity {
    /// One archive's identity, or why there is none (``IdentityCache`` asks once per archive and transport).
    func importIdentity(
        _ archive: TLSCredentials.ClientIdentity
    ) -> Result<Identity, IdentityCache<Identity>.ImportFailure> {
        let (status, identity) = importPKCS12(archive.pkcs12, password: archive.password)
        guard status == 0, let identity else {
            return .failure(.init(reason: "cannot import the PKCS#12 client identity (\(status))"))
        }
        return .success(identity)
    }
}
