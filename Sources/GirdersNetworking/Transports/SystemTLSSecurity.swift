#if canImport(Security) && !canImport(FoundationNetworking)
import CryptoKit
import Foundation
import Security

/// Security's trust evaluation and PKCS#12 import behind ``TLSSecurity``: the thin layer no Linux test runs.
struct SystemTLSSecurity: TLSSecurity {
    let methods = (
        serverTrust: NSURLAuthenticationMethodServerTrust, clientCertificate: NSURLAuthenticationMethodClientCertificate
    )

    func certificate(_ der: Data) -> SecCertificate? { SecCertificateCreateWithData(nil, der as CFData) }

    func evaluate(_ trust: SecTrust, anchors: [SecCertificate], anchorsOnly: Bool) -> (trusted: Bool, reason: String?) {
        SecTrustSetAnchorCertificates(trust, anchors as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, anchorsOnly)
        var error: CFError?
        return (SecTrustEvaluateWithError(trust, &error), error.map { CFErrorCopyDescription($0) as String })
    }

    func leafCertificate(_ trust: SecTrust) -> Data? {
        (SecTrustCopyCertificateChain(trust) as? [SecCertificate])?.first.map { SecCertificateCopyData($0) as Data }
    }

    func sha256(_ data: Data) -> Data { Data(SHA256.hash(data: data)) }

    func importIdentity(
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

extension TLSChallengeAnswer where Trust == SecTrust, Identity == SecIdentity {
    /// The credential URLSession presents.
    var credential: URLCredential? {
        switch self {
        case .useTrust(let trust): URLCredential(trust: trust)
        case .useIdentity(let identity): URLCredential(identity: identity, certificates: nil, persistence: .forSession)
        case .performDefaultHandling, .cancel: nil
        }
    }
}

extension SessionDelegate {
    /// The transport's imported client identities.
    typealias Identities = IdentityCache<SecIdentity>
}
#endif
