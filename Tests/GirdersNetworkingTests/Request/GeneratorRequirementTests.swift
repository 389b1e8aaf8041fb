#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersConfig
import GirdersNetworking
import GirdersTestServers
import Testing

/// A generator that overrides one of GirdersSwift's requirements; the default pipe must reach the override.
struct VersionedJSONGenerator: RequestGenerator {
    func withJsonSupport(request: MutableRequest) -> MutableRequest {
        var request = request
        request.headers["Accept"] = "application/vnd.girders.v2+json"
        return request
    }
}

/// GirdersSwift's pipe with every stage, inside a generator, where the stages are the generator's members.
struct FullPipeGenerator: RequestGenerator {
    func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
        request(withMethod: method) |> withJsonSupport |> withSSLCredentials |> withBasicAuth
    }
}

/// The free functions' other forms stay usable inside a generator although its members share their names.
struct ExplicitStagesGenerator: RequestGenerator {
    let credentials: TLSCredentials

    func generateRequest(withMethod method: HTTPMethod) -> MutableRequest {
        request(withMethod: method) |> withJsonSupport |> withBasicAuth(username: "ada", password: "pw")
            |> withSSLCredentials(credentials) |> withSessionCookie(xsrfToken: "x1", sessionID: "s1")
    }
}

extension UsesNetworkingDefaults {
    struct GeneratorRequirementTests {
        let url = URL(fileURLWithPath: "/items")

        func built(_ generator: some RequestGenerator, method: HTTPMethod = .get) -> Request {
            var request = generator.generateRequest(withMethod: method)
            request.url = url
            return Request(request)
        }

        @Test func theDefaultPipeCallsTheGeneratorsOwnOverride() {
            let request = built(VersionedJSONGenerator())
            #expect(request.headers["Accept"] == "application/vnd.girders.v2+json")
        }

        @Test func theFullGirdersSwiftPipeAddsJSONAndBasicAuthAndLeavesTLSAloneWhenNothingIsConfigured() throws {
            NetworkingDefaults.configuration = try makeConfiguration(["auth.username": "ada", "auth.password": "pw"])
            defer { NetworkingDefaults.configuration = nil }
            let request = built(FullPipeGenerator(), method: .post)
            #expect(request.failureReason == nil)
            #expect(request.headers["Accept"] == "application/json")
            #expect(request.headers["Authorization"] == "Basic " + Data("ada:pw".utf8).base64EncodedString())
            #expect(request.tlsCredentials == nil)
        }

        @Test func theFullPipeReportsTheMissingCredentialInsteadOfSendingWithout() {
            NetworkingDefaults.configuration = nil
            let request = built(FullPipeGenerator())
            #expect(request.failureReason?.contains("auth.username") == true)
        }

        @Test func theOtherFormsOfTheStagesStillWorkInsideAGenerator() {
            let credentials = TLSCredentials(anchorCertificates: [Data([1, 2, 3])])
            let request = built(ExplicitStagesGenerator(credentials: credentials))
            #expect(request.headers["Authorization"] == "Basic " + Data("ada:pw".utf8).base64EncodedString())
            #expect(request.headers["X-XSRF-TOKEN"] == "x1")
            #expect(request.headers["Cookie"] == "JSESSIONID=s1")
            #expect(request.tlsCredentials == credentials)
        }

        @Test func theConfigurationMemberIsTheInstalledOne() throws {
            NetworkingDefaults.configuration = try makeConfiguration(["baseUrl": "https://example.com"])
            defer { NetworkingDefaults.configuration = nil }
            #expect(DefaultRequestGenerator().configuration()?.string(forKey: "baseUrl") == "https://example.com")
        }
    }
}
#endif
