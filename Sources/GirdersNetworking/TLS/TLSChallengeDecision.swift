import Foundation

/// How ``URLSessionTransport`` answers a TLS challenge from the ``TLSCredentials`` of the session it arrived on,
/// decided on every platform so the Linux tests run it; only the calls into Security run on Apple platforms
/// alone (`SystemTLSSecurity`).
///
/// URLSession asks for a server's trust and for a client certificate once per connection, and a kept-alive or
/// HTTP/2 connection keeps the first answer: so the transport runs requests with different credentials on
/// different sessions (see ``ChannelKey``), and the answer here depends on the session's credentials alone.
enum TLSChallengeDecision: Equatable, Sendable {
    /// What the challenge asks for.
    enum Kind: Equatable, Sendable {
        /// The server's certificate chain is to be judged.
        case serverTrust
        /// The server asks for a client certificate.
        case clientCertificate
        /// Anything else (HTTP authentication, which ``HTTPClient`` answers itself).
        case other
    }

    /// Let the system decide: its trust store, no client certificate.
    case performDefaultHandling
    /// Judge the server's chain against these DER certificates (and the system's roots unless `anchorsOnly`), then
    /// its own key against `pins` (SHA-256 digests of `SubjectPublicKeyInfo`; none: no pinning).
    case evaluateTrust(anchors: [Data], anchorsOnly: Bool, pins: [Data])
    /// Present this identity (imported once, see ``IdentityCache``).
    case presentIdentity(TLSCredentials.ClientIdentity)

    /// The decision for a challenge of `kind` on a session with `credentials`.
    static func decide(_ kind: Kind, credentials: TLSCredentials?) -> Self {
        guard let credentials else { return .performDefaultHandling }
        switch kind {
        case .serverTrust:
            let anchors = credentials.anchorCertificates
            guard !anchors.isEmpty || !credentials.publicKeyPins.isEmpty else { return .performDefaultHandling }
            // Pins were checked before the request was sent (WireRequest.check); an unreadable one here would fail
            // closed: an empty digest matches no key.
            let pins = (try? PublicKeyPinning.digests(credentials.publicKeyPins)) ?? [Data()]
            return .evaluateTrust(
                anchors: anchors, anchorsOnly: !anchors.isEmpty && credentials.trustsOnlyAnchors, pins: pins)
        case .clientCertificate:
            guard let identity = credentials.clientIdentity else { return .performDefaultHandling }
            return .presentIdentity(identity)
        case .other:
            return .performDefaultHandling
        }
    }

    /// Why a trust evaluation fails the request, or `nil` when the server may be trusted: every anchor must
    /// parse as DER X.509 (`parsedAnchors` of `anchors`), and the evaluation must pass.
    static func trustFailure(
        host: String, anchors: Int, parsedAnchors: Int, trusted: Bool, reason: String?
    ) -> String? {
        guard parsedAnchors == anchors else {
            return "\(anchors - parsedAnchors) of \(anchors) anchor certificates are not DER-encoded X.509"
        }
        return trusted ? nil : "the server certificate of \(host): \(reason ?? "not trusted")"
    }
}
