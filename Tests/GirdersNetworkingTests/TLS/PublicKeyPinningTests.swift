import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking

/// A real certificate made with `openssl req -x509 -newkey ec` (P-256, CN=pinned.example), the
/// `SubjectPublicKeyInfo` openssl reads from it (`openssl x509 -pubkey | openssl pkey -pubin -outform der`) and
/// its pin (`| openssl dgst -sha256 -binary | base64`).
enum PinningFixture {
    static let certificate =
        "MIIBiDCCAS2gAwIBAgIUFcw1gdchmae+o5VW9P4USmQCsA0wCgYIKoZIzj0EAwIwGTEXMBUGA1UEAwwOcGlubmVkLmV4YW1wbGUwHhcNMjYx"
        + "MTI1MTQwOTMxWhcNMzYxMTIyMTQwOTMxWjAZMRcwFQYDVQQDDA5waW5uZWQuZXhhbXBsZTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABLpV"
        + "wOG+vRLEVSB3zgLoy5+0O7lOhoCYMmnkeWQx9hRgKKhKMS8b9RnDZgZTjisyTosvERNUdYhiN/p41kOyBkOjUzBRMB0GA1UdDgQWBBQS5KX8"
        + "8WCQz50mw04DYxbey5bQnTAfBgNVHSMEGDAWgBQS5KX88WCQz50mw04DYxbey5bQnTAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kA"
        + "MEYCIQC6FqaH5yPRdibkkcROy4cBWIeENTsSEMhfgDVj9qZexgIhAMeGmazbtiaLP6d1A19amc2hh+hY4MEzw19Tg5C2WWjO"
    static let subjectPublicKeyInfo =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEulXA4b69EsRVIHfOAujLn7Q7uU6GgJgyaeR5ZDH2FGAoqEoxLxv1GcNmBlOOKzJOiy8RE1R1"
        + "iGI3+njWQ7IGQw=="
    static let pin = "o043nrYj8ET3tndiv0T7gXEZSuRB7WU6YhfCDr38q6U="
    /// A pin of some other key: the backup.
    static let backup = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
}

/// Public-key pins: read and checked before anything is sent, the key found in a server's certificate exactly as
/// openssl finds it, and URLSessionTransport's verdict on Apple platforms (run here through the fake Security).
struct PublicKeyPinningTests {
    @Test func theKeyIsFoundInTheCertificateAsOpensslFindsIt() throws {
        let certificate = try #require(Data(base64Encoded: PinningFixture.certificate))
        #expect(
            DERCertificate.subjectPublicKeyInfo(in: certificate)
                == Data(base64Encoded: PinningFixture.subjectPublicKeyInfo))
    }

    @Test func aTruncatedOrGarbledCertificateYieldsNoKeyAndNeverReadsOutOfBounds() throws {
        let certificate = try #require(Data(base64Encoded: PinningFixture.certificate))
        for length in 0..<certificate.count {
            #expect(DERCertificate.subjectPublicKeyInfo(in: certificate.prefix(length)) == nil)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var bytes = [UInt8](certificate)
            for _ in 0..<4 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(in: 0...255) }
            _ = DERCertificate.subjectPublicKeyInfo(in: Data(bytes))
        }
        #expect(
            DERCertificate.subjectPublicKeyInfo(in: Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])) == nil)
    }

    #if os(macOS) || os(Linux)
    @Test(arguments: TransportKind.allCases)
    func aPinThatIsNotASHA256DigestFailsTheRequestBeforeItIsSent(_ kind: TransportKind) async throws {
        let credentials = TLSCredentials(publicKeyPins: [PinningFixture.pin, "sha256//short"])
        let request = Request(
            MutableRequest(url: URL(string: "https://127.0.0.1:1/")!) |> withSSLCredentials(credentials))
        let error = await responseError { _ = try await kind.client().perform(request) }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason == "public-key pin 2 of 2 is not the base64 of a SHA-256 digest (44 characters)")
        #expect(try PublicKeyPinning.digests(["sha256//" + PinningFixture.pin]).count == 1)
    }
    #endif

    #if canImport(FoundationNetworking)
    @Test func urlSessionTransportOnLinuxRefusesPinsItCannotCheck() async throws {
        // FoundationNetworking exposes no server trust: a pinned request must fail, never go out unpinned.
        let request = Request(
            MutableRequest(url: URL(string: "https://127.0.0.1:1/")!)
                |> withSSLCredentials(TLSCredentials(publicKeyPins: [PinningFixture.pin])))
        let error = await responseError { _ = try await TransportKind.urlSession.client().perform(request) }
        #expect(error?.kind == .unsupported, "\(String(describing: error))")
    }
    #endif

    @Test func onApplePlatformsTheServerPassesWhenItsKeyMatchesAnyPinAndFailsOtherwise() {
        let security = FakeTLSSecurity()
        func answer(_ pins: [String], trust: String = "pinned.example") -> TLSChallengeAnswer<String, String> {
            .answer(
                method: FakeTLSSecurity.serverTrust, host: "pinned.example", serverTrust: trust,
                credentials: TLSCredentials(publicKeyPins: pins), identities: IdentityCache<String>(),
                security: security)
        }
        if case .useTrust = answer([PinningFixture.backup, PinningFixture.pin]) {
        } else {
            Issue.record("the backup pin first, the current key second: trusted")
        }
        #expect(
            answer([PinningFixture.backup]).failure
                == "the public key of pinned.example matches none of the 1 pinned keys")
        #expect(
            answer([PinningFixture.pin], trust: "unreadable").failure
                == "the server certificate of pinned.example has no readable public key to pin")
        // Pins alone: the chain is still judged, against the system's roots.
        #expect(security.evaluations.values.first == "pinned.example anchors= only=false")
    }
}
