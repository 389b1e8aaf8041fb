import Foundation
import Testing

@testable import GirdersNetworking

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
                == .evaluateTrust(anchors: [anchor], anchorsOnly: false))
        #expect(TLSChallengeDecision.decide(.clientCertificate, credentials: credentials) == .presentIdentity(identity))
        #expect(TLSChallengeDecision.decide(.other, credentials: credentials) == .performDefaultHandling)
        let anchorsOnly = TLSCredentials(anchorCertificates: [anchor])
        #expect(TLSChallengeDecision.decide(.clientCertificate, credentials: anchorsOnly) == .performDefaultHandling)
        #expect(
            TLSChallengeDecision.decide(.serverTrust, credentials: anchorsOnly)
                == .evaluateTrust(anchors: [anchor], anchorsOnly: true))
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
        let keyA = ChannelKey(for: request(first), separatesCookieHeaders: false)
        #expect(
            keyA == ChannelKey(for: request(TLSCredentials(clientIdentity: identity)), separatesCookieHeaders: false))
        #expect(keyA != ChannelKey(for: request(second), separatesCookieHeaders: false))
        #expect(ChannelKey(for: request(nil), separatesCookieHeaders: false).isDefault)
        #expect(ChannelKey(for: request(nil, cookie: true), separatesCookieHeaders: false).isDefault)
        #expect(!ChannelKey(for: request(nil, cookie: true), separatesCookieHeaders: true).isDefault)

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
        let keyB = ChannelKey(for: request(second), separatesCookieHeaders: false)
        #expect(channel(keyB, "B") == "B")
        #expect(channel(keyA, "A") == "A")  // A is now the most recent
        let keyC = ChannelKey(for: request(nil, cookie: true), separatesCookieHeaders: true)
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
