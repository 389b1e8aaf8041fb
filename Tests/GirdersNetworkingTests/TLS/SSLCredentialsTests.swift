#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersConfig
import GirdersNetworking
import GirdersTestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension UsesNetworkingDefaults {
    /// `withSSLCredentials` read from the configuration as GirdersSwift read it, with resources in a folder the
    /// test makes and opens as a bundle.
    struct SSLCredentialsTests {
        let certificate = Data((0..<600).map { UInt8($0 % 251) })
        let archive = Data((0..<900).map { UInt8($0 % 241) })

        /// A folder with `ca.der` and `client.p12`, opened as a bundle.
        func resources() throws -> (folder: URL, bundle: Bundle) {
            let folder = try temporaryFolder()
            try certificate.write(to: folder.appendingPathComponent("ca.der"))
            try archive.write(to: folder.appendingPathComponent("client.p12"))
            let bundle = try #require(Bundle(path: folder.path))
            return (folder, bundle)
        }

        func piped(_ entries: [String: String], bundle: Bundle) throws -> MutableRequest {
            let configuration = try makeConfiguration(entries)
            return MutableRequest(method: .get, url: URL(fileURLWithPath: "/"))
                |> withSSLCredentials(from: configuration, bundle: bundle)
        }

        @Test func theThreeKeysBecomeAnAnchorAndAClientIdentity() throws {
            let (folder, bundle) = try resources()
            defer { try? FileManager.default.removeItem(at: folder) }
            let request = try piped(
                ["caServer": "ca.der", "clientP12": "client.p12", "clientP12Password": "s3cret"], bundle: bundle)
            #expect(request.failureReason == nil)
            let credentials = try #require(request.tlsCredentials)
            #expect(credentials.anchorCertificates == [certificate])
            #expect(credentials.trustsOnlyAnchors)
            #expect(credentials.clientIdentity == .init(pkcs12: archive, password: "s3cret"))
        }

        @Test func aClientIdentityAloneKeepsTheSystemsTrust() throws {
            let (folder, bundle) = try resources()
            defer { try? FileManager.default.removeItem(at: folder) }
            let request = try piped(["clientP12": "client.p12", "clientP12Password": "pw"], bundle: bundle)
            let credentials = try #require(request.tlsCredentials)
            #expect(credentials.anchorCertificates.isEmpty)
            #expect(!credentials.trustsOnlyAnchors)
        }

        @Test func withNoneOfTheKeysTheRequestPassesThroughUnchanged() throws {
            let (folder, bundle) = try resources()
            defer { try? FileManager.default.removeItem(at: folder) }
            let request = try piped(["baseUrl": "https://example.com"], bundle: bundle)
            #expect(request.tlsCredentials == nil)
            #expect(request.failureReason == nil)
        }

        @Test(arguments: [
            (["caServer": "missing.der"], "caServer names \"missing.der\""),
            (["caServer": "../ca.der"], "caServer must name a resource of the bundle, not a path"),
            (["caServer": "sub/ca.der"], "not a path"),
            (["clientP12": "client.p12"], "clientP12Password"),
            (["clientP12Password": "pw"], "clientP12"),
            (["caServer": "."], "not a path"),
        ])
        func aKeyThatCannotBeUsedFailsTheRequestNamingIt(entries: [String: String], expected: String) throws {
            let (folder, bundle) = try resources()
            defer { try? FileManager.default.removeItem(at: folder) }
            let request = try piped(entries, bundle: bundle)
            let reason = try #require(request.failureReason)
            #expect(reason.hasPrefix("withSSLCredentials: "))
            #expect(reason.contains(expected), "\(reason)")
            #expect(request.tlsCredentials == nil)
        }

        @Test func aResourceThatIsNotARegularFileOrTooLargeIsRefused() throws {
            let (folder, bundle) = try resources()
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("folder.der"), withIntermediateDirectories: false)
            try Data(count: (1 << 20) + 1).write(to: folder.appendingPathComponent("huge.der"))
            for name in ["folder.der", "huge.der"] {
                let request = try piped(["caServer": name], bundle: bundle)
                #expect(
                    request.failureReason?.contains("not a regular file of at most 1048576 bytes") == true, "\(name)")
            }
        }

        @Test func theBareStageWithoutAConfigurationPassesThrough() {
            NetworkingDefaults.configuration = nil
            let request = MutableRequest(method: .get) |> withSSLCredentials
            #expect(request.tlsCredentials == nil)
            #expect(request.failureReason == nil)
        }

        #if canImport(FoundationNetworking)
        @Test func onLinuxURLSessionRefusesConfiguredCredentialsBeforeAnythingIsSent() async throws {
            let (folder, bundle) = try resources()
            defer { try? FileManager.default.removeItem(at: folder) }
            let server = try LoopbackServer.get()
            let configuration = try makeConfiguration(["caServer": "ca.der"])
            let request = Request(
                MutableRequest(method: .get, url: server.url("/echo"))
                    |> withSSLCredentials(from: configuration, bundle: bundle))
            await #expect {
                // FoundationNetworking cannot present them; CurlTransport, the default on Linux, can.
                let foundation = HTTPClient(transport: URLSessionTransport(configuration: .default))
                let _: Response<Data> = try await foundation.executeRequest(request: request)
            } throws: { error in
                guard case .unsupported(let feature) = error as? ResponseError else { return false }
                return feature.contains("TLS credentials")
            }
        }
        #endif
    }
}
#endif
