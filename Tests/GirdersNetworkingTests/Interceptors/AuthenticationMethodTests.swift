import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The challenge kinds URLSessionTransport answers, by the `NSURLAuthenticationMethod…` strings URLSession
/// hands its delegate.
struct AuthenticationMethodTests {
    @Test func onlyTheServerTrustAndClientCertificateMethodsAreTLSChallenges() {
        #expect(TLSChallengeDecision.Kind(method: "NSURLAuthenticationMethodServerTrust") == .serverTrust)
        #expect(TLSChallengeDecision.Kind(method: "NSURLAuthenticationMethodClientCertificate") == .clientCertificate)
        for method in ["NSURLAuthenticationMethodHTTPBasic", "NSURLAuthenticationMethodDefault", "", "servertrust"] {
            #expect(TLSChallengeDecision.Kind(method: method) == .other)
        }
    }

    #if !canImport(FoundationNetworking)
    /// Where Foundation declares the constants (Apple platforms), the spelled ones are Foundation's own.
    @Test func theSpelledMethodsAreFoundationsOwn() {
        #expect(TLSChallengeDecision.Kind.serverTrustMethod == NSURLAuthenticationMethodServerTrust)
        #expect(TLSChallengeDecision.Kind.clientCertificateMethod == NSURLAuthenticationMethodClientCertificate)
    }
    #endif
}
