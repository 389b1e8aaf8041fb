#if canImport(Security) && !canImport(FoundationNetworking)
import Foundation
import Security

extension SessionDelegate {
    /// The transport's imported client identities.
    typealias Identities = IdentityCache<SecIdentity>
}

/// Carries out a ``TLSChallengeDecision`` with Security: the thin layer no Linux test runs.
enum TLSChallengeAnswer {
    /// The disposition, the credential, and a failure reason when the challenge is refused.
    static func answer(
        _ challenge: URLAuthenticationChallenge, with credentials: TLSCredentials?,
        identities: SessionDelegate.Identities
    ) -> (URLSession.AuthChallengeDisposition, URLCredential?, String?) {
        let space = challenge.protectionSpace
        let kind: TLSChallengeDecision.Kind =
            switch space.authenticationMethod {
            case NSURLAuthenticationMethodServerTrust: .serverTrust
            case NSURLAuthenticationMethodClientCertificate: .clientCertificate
            default: .other
            }
        switch TLSChallengeDecision.decide(kind, credentials: credentials) {
        case .performDefaultHandling:
            return (.performDefaultHandling, nil, nil)
        case .evaluateTrust(let anchors, let anchorsOnly):
            guard let trust = space.serverTrust else { return (.performDefaultHandling, nil, nil) }
            let certificates = anchors.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
            SecTrustSetAnchorCertificates(trust, certificates as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, anchorsOnly)
            var error: CFError?
            let trusted = certificates.count == anchors.count && SecTrustEvaluateWithError(trust, &error)
            let failure = TLSChallengeDecision.trustFailure(
                host: space.host, anchors: anchors.count, parsedAnchors: certificates.count, trusted: trusted,
                reason: error.map { CFErrorCopyDescription($0) as String })
            if let failure { return (.cancelAuthenticationChallenge, nil, failure) }
            return (.useCredential, URLCredential(trust: trust), nil)
        case .presentIdentity(let archive):
            switch identities.identity(for: archive, importer: importIdentity) {
            case .success(let identity):
                return (
                    .useCredential, URLCredential(identity: identity, certificates: nil, persistence: .forSession), nil
                )
            case .failure(let failure):
                return (.cancelAuthenticationChallenge, nil, failure.reason)
            }
        }
    }

    /// `SecPKCS12Import` of one archive (the cache calls it once per archive and transport).
    static func importIdentity(
        _ archive: TLSCredentials.ClientIdentity
    ) -> Result<SecIdentity, IdentityCache<SecIdentity>.ImportFailure> {
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: archive.password] as CFDictionary
        let status = SecPKCS12Import(archive.pkcs12 as CFData, options, &items)
        guard status == errSecSuccess, let first = (items as? [[String: Any]])?.first,
            let value = first[kSecImportItemIdentity as String],
            CFGetTypeID(value as CFTypeRef) == SecIdentityGetTypeID()
        else { return .failure(.init(reason: "cannot import the PKCS#12 client identity (\(status))")) }
        return .success(unsafeBitCast(value as CFTypeRef, to: SecIdentity.self))
    }
}
#endif
