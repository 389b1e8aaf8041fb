#if canImport(Security) && !canImport(FoundationNetworking)
import CryptoKit
import Foundation
import Security

/// Security's trust evaluation and PKCS#12 import behind ``TLSSecurity``: the thin layer no Linux test runs.
struct SystemTLSSecurity: TLSSecurity {
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

    func importPKCS12(_ archive: Data, password: String) -> (status: Int32, identity: SecIdentity?) {
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: password] as CFDictionary
        let status = SecPKCS12Import(archive as CFData, options, &items)
        let first = (items as? [[String: Any]])?.first?[kSecImportItemIdentity as String].map { $0 as CFTypeRef }
        guard let first, CFGetTypeID(first) == SecIdentityGetTypeID() else { return (status, nil) }
        return (status, unsafeDowncast(first, to: SecIdentity.self))  // a SecIdentity: its type ID says so
    }

    func credential(trusting trust: SecTrust) -> URLCredential { URLCredential(trust: trust) }

    func credential(presenting identity: SecIdentity) -> URLCredential {
        URLCredential(identity: identity, certificates: nil, persistence: .forSession)
    }
}

/// What URLSessionTransport's client identities are.
typealias ClientIdentity = SecIdentity
#else
/// FoundationNetworking offers no client identities: nothing is ever imported.
typealias ClientIdentity = Never
#endif
