import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``URLSessionTransport`` answers one TLS challenge: ``TLSChallengeDecision`` carried out through a
/// ``TLSSecurity``. It runs on every platform, so the Linux tests drive it with a fake; on Apple platforms only
/// the Security calls and the `URLCredential` they end in are left untested here.
enum TLSChallengeAnswer<Trust, Identity> {
    /// Let the system decide.
    case performDefaultHandling
    /// The server passed the evaluation: use its trust.
    case useTrust(Trust)
    /// Present this client identity.
    case useIdentity(Identity)
    /// Refuse the connection, for this reason (reported as the request's TLS failure).
    case cancel(reason: String)

    /// The answer to a challenge with authentication method `method` (the `NSURLAuthenticationMethod…` string)
    /// from `host`, on a session with `credentials`. `serverTrust` is the chain the challenge carries, if any.
    static func answer<Security: TLSSecurity>(
        method: String, host: String, serverTrust: Trust?, credentials: TLSCredentials?,
        identities: IdentityCache<Identity>, security: Security
    ) -> Self where Security.Trust == Trust, Security.Identity == Identity {
        switch TLSChallengeDecision.decide(.init(method: method), credentials: credentials) {
        case .performDefaultHandling:
            return .performDefaultHandling
        case .evaluateTrust(let anchors, let anchorsOnly, let pins):
            guard let serverTrust else {
                return pins.isEmpty ? .performDefaultHandling : .cancel(reason: "no server trust to check pins against")
            }
            let certificates = anchors.compactMap(security.certificate)
            let evaluation =
                certificates.count == anchors.count
                ? security.evaluate(serverTrust, anchors: certificates, anchorsOnly: anchorsOnly)
                : (trusted: false, reason: nil)
            var failure = TLSChallengeDecision.trustFailure(
                host: host, anchors: anchors.count, parsedAnchors: certificates.count, trusted: evaluation.trusted,
                reason: evaluation.reason)
            if failure == nil, !pins.isEmpty {
                let key = security.leafCertificate(serverTrust).flatMap(DERCertificate.subjectPublicKeyInfo)
                failure = PublicKeyPinning.failure(host: host, keyDigest: key.map(security.sha256), digests: pins)
            }
            return failure.map { .cancel(reason: $0) } ?? .useTrust(serverTrust)
        case .presentIdentity(let archive):
            switch identities.identity(for: archive, importer: security.importIdentity) {
            case .success(let identity): return .useIdentity(identity)
            case .failure(let failure): return .cancel(reason: failure.reason)
            }
        }
    }

    /// What the session delegate hands URLSession.
    var disposition: URLSession.AuthChallengeDisposition {
        switch self {
        case .performDefaultHandling: .performDefaultHandling
        case .useTrust, .useIdentity: .useCredential
        case .cancel: .cancelAuthenticationChallenge
        }
    }

    /// The credential the session delegate hands URLSession with ``disposition``, if any.
    func credential<Security: TLSSecurity>(_ security: Security) -> Security.Credential?
    where Security.Trust == Trust, Security.Identity == Identity {
        switch self {
        case .useTrust(let trust): security.credential(trusting: trust)
        case .useIdentity(let identity): security.credential(presenting: identity)
        case .performDefaultHandling, .cancel: nil
        }
    }

    /// Why the connection was refused, if it was.
    var failure: String? {
        if case .cancel(let reason) = self { reason } else { nil }
    }
}

extension TLSChallengeDecision.Kind {
    /// `NSURLAuthenticationMethodServerTrust`, spelled by its contents: FoundationNetworking declares it
    /// unavailable (it never delivers the challenge), so the decision could not otherwise run in the Linux tests.
    /// `AuthenticationMethodTests` compares both with Foundation's own wherever Foundation declares them.
    static let serverTrustMethod = "NSURLAuthenticationMethodServerTrust"
    /// `NSURLAuthenticationMethodClientCertificate`, spelled by its contents.
    static let clientCertificateMethod = "NSURLAuthenticationMethodClientCertificate"

    /// The kind of a challenge with this `NSURLAuthenticationMethod…` string.
    init(method: String) {
        switch method {
        case Self.serverTrustMethod: self = .serverTrust
        case Self.clientCertificateMethod: self = .clientCertificate
        default: self = .other
        }
    }
}
