#if canImport(Security) && !canImport(FoundationNetworking)
import Foundation
import Security

/// Answers Apple platforms' TLS challenges from a request's ``TLSCredentials``.
enum TLSChallengeAnswer {
    /// The disposition, the credential, and a failure reason when the challenge is refused.
    static func answer(
        _ challenge: URLAuthenticationChallenge, with credentials: TLSCredentials?
    ) -> (URLSession.AuthChallengeDisposition, URLCredential?, String?) {
        let space = challenge.protectionSpace
        guard let credentials else { return (.performDefaultHandling, nil, nil) }
        switch space.authenticationMethod {
        case NSURLAuthenticationMethodServerTrust:
            guard !credentials.anchorCertificates.isEmpty, let trust = space.serverTrust else {
                return (.performDefaultHandling, nil, nil)
            }
            let anchors = credentials.anchorCertificates.compactMap {
                SecCertificateCreateWithData(nil, $0 as CFData)
            }
            guard anchors.count == credentials.anchorCertificates.count else {
                return (.cancelAuthenticationChallenge, nil, "an anchor certificate is not DER-encoded X.509")
            }
            SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, credentials.trustsOnlyAnchors)
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                let reason = error.map { CFErrorCopyDescription($0) as String } ?? "not trusted"
                return (.cancelAuthenticationChallenge, nil, "the server certificate of \(space.host): \(reason)")
            }
            return (.useCredential, URLCredential(trust: trust), nil)
        case NSURLAuthenticationMethodClientCertificate:
            guard let identity = credentials.clientIdentity else { return (.performDefaultHandling, nil, nil) }
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: identity.password] as CFDictionary
            let status = SecPKCS12Import(identity.pkcs12 as CFData, options, &items)
            guard status == errSecSuccess, let first = (items as? [[String: Any]])?.first,
                let value = first[kSecImportItemIdentity as String],
                CFGetTypeID(value as CFTypeRef) == SecIdentityGetTypeID()
            else {
                return (.cancelAuthenticationChallenge, nil, "cannot import the PKCS#12 client identity (\(status))")
            }
            let secIdentity = unsafeBitCast(value as CFTypeRef, to: SecIdentity.self)
            return (
                .useCredential, URLCredential(identity: secIdentity, certificates: nil, persistence: .forSession), nil
            )
        default:
            return (.performDefaultHandling, nil, nil)
        }
    }
}
#endif
