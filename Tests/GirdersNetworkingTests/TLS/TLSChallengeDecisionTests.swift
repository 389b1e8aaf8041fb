import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How URLSessionTransport answers TLS challenges and picks sessions on Apple platforms, run here: the decision,
/// the import-once cache and the session per distinct credentials.
struct TLSChallengeDecisionTests {
    let identity = TLSCredentials.ClientIdentity(pkcs12: Data([1, 2, 3]), password: "pw")
    let anchor = Data([0x30, 0x82])

    @Test func withoutCredentialsTheSystemDecidesEveryChallenge() {
        for kind in [TLSChallengeDecision.Kind.serverTrust, .clientCertificate, .other] {
            #expect(TLSChallengeDecision.decide(kind, credentials: nil) == .performDefaultHandling)
        }
    }

    @Test func anchorsJudgeTheServerAndAnIdentityAnswersTheCertificateRequest() {
        let credentials = TLSCredentials(
            anchorCertificates: [anchor], trustsOnlyAnchors: false, clientIdentity: identity)
        #expect(
            TLSChallengeDecision.decide(.serverTrust, credentials: credentials)
                == .evaluateTrust(anchors: [anchor], anchorsOnly: false, pins: []))
        #expect(TLSChallengeDecision.decide(.clientCertificate, credentials: credentials) == .presentIdentity(identity))
        #expect(TLSChallengeDecision.decide(.other, credentials: credentials) == .performDefaultHandling)
        let anchorsOnly = TLSCredentials(anchorCertificates: [anchor])
        #expect(TLSChallengeDecision.decide(.clientCertificate, credentials: anchorsOnly) == .performDefaultHandling)
        #expect(
            TLSChallengeDecision.decide(.serverTrust, credentials: anchorsOnly)
                == .evaluateTrust(anchors: [anchor], anchorsOnly: true, pins: []))
        let identityOnly = TLSCredentials(clientIdentity: identity)
        #expect(TLSChallengeDecision.decide(.serverTrust, credentials: identityOnly) == .performDefaultHandling)
    }

    @Test func anAnchorThatIsNotACertificateOrAFailedEvaluationRefusesTheServer() {
        #expect(
            TLSChallengeDecision.trustFailure(host: "h", anchors: 2, parsedAnchors: 1, trusted: true, reason: nil)
                == "1 of 2 anchor certificates are not DER-encoded X.509")
        #expect(
            TLSChallengeDecision.trustFailure(
                host: "h", anchors: 1, parsedAnchors: 1, trusted: false, reason: "expired")
                == "the server certificate of h: expired")
        #expect(
            TLSChallengeDecision.trustFailure(host: "h", anchors: 1, parsedAnchors: 1, trusted: true, reason: nil)
                == nil)
    }

    @Test func theAnswerTrustsTheServerOnlyWhenEveryAnchorParsesAndTheEvaluationPasses() {
        let security = FakeTLSSecurity()
        let identities = IdentityCache<String>()
        func answer(
            _ credentials: TLSCredentials?, method: String = FakeTLSSecurity.serverTrust
        )
            -> TLSChallengeAnswer<String, String>
        {
            .answer(
                method: method, host: "api.example", serverTrust: "chain", credentials: credentials,
                identities: identities, security: security)
        }
        let good = TLSCredentials(anchorCertificates: [Data("good".utf8)])
        let trusted = answer(good)
        #expect(trusted == .useTrust("chain"))
        #expect(trusted.disposition == .useCredential)
        #expect(trusted.failure == nil)
        #expect(trusted.credential(security) == "trust chain")
        #expect(security.evaluations.values == ["chain anchors=good only=true"])

        let broken = TLSCredentials(anchorCertificates: [Data("good".utf8), Data("not DER".utf8)])
        #expect(answer(broken) == .cancel(reason: "1 of 2 anchor certificates are not DER-encoded X.509"))
        #expect(security.evaluations.values.count == 1)  // nothing is evaluated against half the anchors

        let expired = TLSCredentials(anchorCertificates: [Data("expired".utf8)], trustsOnlyAnchors: false)
        let refused = answer(expired)
        #expect(refused == .cancel(reason: "the server certificate of api.example: certificate has expired"))
        #expect(refused.disposition == .cancelAuthenticationChallenge)
        #expect(refused.failure == "the server certificate of api.example: certificate has expired")
        #expect(security.evaluations.values.last == "chain anchors=expired only=false")

        #expect(answer(nil) == .performDefaultHandling)
        #expect(answer(nil).credential(security) == nil)
        #expect(answer(good, method: "NSURLAuthenticationMethodHTTPBasic") == .performDefaultHandling)
        #expect(answer(good, method: "NSURLAuthenticationMethodHTTPBasic").disposition == .performDefaultHandling)
        let noTrust = TLSChallengeAnswer.answer(
            method: FakeTLSSecurity.serverTrust, host: "h", serverTrust: nil, credentials: good,
            identities: identities, security: security)
        #expect(noTrust == .performDefaultHandling)
    }

    @Test func aCertificateRequestIsAnsweredWithTheImportedIdentityOrRefusedWithTheImportError() {
        let security = FakeTLSSecurity()
        let identities = IdentityCache<String>()
        func answer(_ identity: TLSCredentials.ClientIdentity) -> TLSChallengeAnswer<String, String> {
            .answer(
                method: FakeTLSSecurity.clientCertificate, host: "h", serverTrust: nil,
                credentials: TLSCredentials(clientIdentity: identity), identities: identities, security: security)
        }
        #expect(answer(identity) == .useIdentity("identity-3"))
        #expect(answer(identity).disposition == .useCredential)
        #expect(answer(identity).credential(security) == "identity identity-3 for the session")
        let wrong = TLSCredentials.ClientIdentity(pkcs12: Data([1]), password: "nope")
        let refusal = TLSChallengeAnswer<String, String>.cancel(
            reason: "cannot import the PKCS#12 client identity (-25293)")
        #expect(answer(wrong) == refusal)
        #expect(answer(wrong) == refusal)
        #expect(answer(wrong).credential(security) == nil)
        let certificatesOnly = TLSCredentials.ClientIdentity(pkcs12: Data([2]), password: "no identity")
        #expect(answer(certificatesOnly) == .cancel(reason: "cannot import the PKCS#12 client identity (0)"))
        #expect(security.imports.value == 3)  // once per archive, however many connections ask
    }

    @Test func anIdentityIsImportedOnceAndAFailedImportIsNotRetriedOnEveryChallenge() throws {
        let cache = IdentityCache<String>()
        let imports = Counter()
        let importer: (TLSCredentials.ClientIdentity) -> Result<String, IdentityCache<String>.ImportFailure> = {
            imports.increment()
            return $0.password == "pw"
                ? .success("identity-\($0.pkcs12.count)") : .failure(.init(reason: "wrong password"))
        }
        for _ in 0..<5 { #expect(try cache.identity(for: identity, importer: importer).get() == "identity-3") }
        #expect(imports.value == 1)
        let wrong = TLSCredentials.ClientIdentity(pkcs12: Data([1, 2, 3]), password: "nope")
        for _ in 0..<3 {
            #expect(cache.identity(for: wrong, importer: importer) == .failure(.init(reason: "wrong password")))
        }
        #expect(imports.value == 2)
    }

    @Test func requestsWithDifferentCredentialsRunOnDifferentSessionsAndEqualOnesShareOne() {
        func request(_ credentials: TLSCredentials?, cookie: Bool = false) -> Request {
            var mutable = MutableRequest(url: URL(string: "https://example.com/a")!)
            mutable.tlsCredentials = credentials
            if cookie { mutable.headers.add(name: "Cookie", value: "a=b") }
            return Request(mutable)
        }
        let first = TLSCredentials(clientIdentity: identity)
        let second = TLSCredentials(clientIdentity: .init(pkcs12: Data([9]), password: "pw"))
        let keyA = ChannelKey(for: request(first))
        #expect(
            keyA == ChannelKey(for: request(TLSCredentials(clientIdentity: identity))))
        #expect(keyA != ChannelKey(for: request(second)))
        #expect(ChannelKey(for: request(nil)).isDefault)
        // Cookies no longer need a session of their own: the transport fills the Cookie field itself.
        #expect(ChannelKey(for: request(nil, cookie: true)).isDefault)

        let retired = LockedStrings()
        let table = ChannelTable<String>(limit: 2) { retired.append($0) }
        let made = Counter()
        func channel(_ key: ChannelKey, _ name: String) -> String {
            table.channel(for: key) {
                made.increment()
                return name
            }
        }
        #expect(channel(keyA, "A") == "A")
        #expect(channel(keyA, "A again") == "A")
        let keyB = ChannelKey(for: request(second))
        #expect(channel(keyB, "B") == "B")
        #expect(channel(keyA, "A") == "A")  // A is now the most recent
        let keyC = ChannelKey(for: request(TLSCredentials(clientIdentity: .init(pkcs12: Data([7]), password: "x"))))
        #expect(channel(keyC, "C") == "C")
        #expect(made.value == 3)
        #expect(retired.values == ["B"])  // the least recently used went, with its tasks left to finish
        #expect(table.count == 2)
    }
}

/// A thread-safe counter for closures the tests hand out.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Strings collected from `@Sendable` closures.
final class LockedStrings: @unchecked Sendable {
    private let lock = NSLock()
    private var strings: [String] = []
    func append(_ string: String) { lock.withLock { strings.append(string) } }
    var values: [String] { lock.withLock { strings } }
}

extension TLSChallengeAnswer: Equatable where Trust == String, Identity == String {
    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.performDefaultHandling, .performDefaultHandling): true
        case (.useTrust(let a), .useTrust(let b)), (.useIdentity(let a), .useIdentity(let b)): a == b
        case (.cancel(let a), .cancel(let b)): a == b
        default: false
        }
    }
}

/// Behaves like Security for the answer's purposes: anchors parse unless they say "not DER", a chain evaluated
/// against an "expired" anchor fails, an archive imports unless its password is wrong
/// (or holds no identity), and credentials say what they carry.
struct FakeTLSSecurity: TLSSecurity {
    static let serverTrust = TLSChallengeDecision.Kind.serverTrustMethod
    static let clientCertificate = TLSChallengeDecision.Kind.clientCertificateMethod
    let evaluations = LockedStrings()
    let imports = Counter()

    func certificate(_ der: Data) -> String? {
        let text = String(decoding: der, as: UTF8.self)
        return text == "not DER" ? nil : text
    }

    func evaluate(_ trust: String, anchors: [String], anchorsOnly: Bool) -> (trusted: Bool, reason: String?) {
        evaluations.append("\(trust) anchors=\(anchors.joined(separator: ",")) only=\(anchorsOnly)")
        return anchors.contains("expired") ? (false, "certificate has expired") : (true, nil)
    }

    /// The trust "pinned.example" carries ``PinningFixture/certificate``; any other trust has no readable leaf.
    func leafCertificate(_ trust: String) -> Data? {
        trust == "pinned.example" ? Data(base64Encoded: PinningFixture.certificate) : nil
    }

    /// SHA-256 of exactly the `SubjectPublicKeyInfo` openssl reads from the fixture; anything else hashes to
    /// zeros, so a wrong extraction fails the pin.
    func sha256(_ data: Data) -> Data {
        data == Data(base64Encoded: PinningFixture.subjectPublicKeyInfo)
            ? Data(base64Encoded: PinningFixture.pin) ?? Data() : Data(count: 32)
    }

    func importPKCS12(_ archive: Data, password: String) -> (status: Int32, identity: String?) {
        imports.increment()
        switch password {
        case "pw": return (0, "identity-\(archive.count)")
        case "no identity": return (0, nil)  // an archive of certificates alone
        default: return (-25293, nil)  // errSecAuthFailed
        }
    }

    func credential(trusting trust: String) -> String { "trust \(trust)" }
    func credential(presenting identity: String) -> String { "identity \(identity) for the session" }
}
