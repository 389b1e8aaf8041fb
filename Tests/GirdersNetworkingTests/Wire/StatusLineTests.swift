#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// A status code is three digits from 100 to 999 (RFC 9110, 15; 600-999 have no class but are well formed), on
/// every transport and from any transport, so nothing downstream (a bridge to a type that traps on a code beyond
/// 999) receives another.
struct StatusLineTests {
    let server: HostileServer

    init() throws {
        server = try HostileServer.get()
    }

    @Test(arguments: TransportKind.allCases)
    func aStatusCodeOutsideOneHundredToNineHundredNinetyNineIsRefused(_ kind: TransportKind) async {
        for code in ["099", "000", "20", "1000", "2000", "-12"] {
            let error = await responseError {
                _ = try await kind.client().perform(Request(URL: server.url("/status-line?code=\(code)"), method: .get))
            }
            #expect(error?.response == nil, "\(code): \(String(describing: error))")
            #expect(error?.kind == .transport, "\(code): \(String(describing: error))")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aStatusCodeWithoutAClassStillReachesTheApp(_ kind: TransportKind) async {
        for code in [600, 999] {
            let error = await responseError {
                _ = try await kind.client().perform(Request(URL: server.url("/status-line?code=\(code)"), method: .get))
            }
            #expect(error?.statusCode == code, "\(code): \(String(describing: error))")
            #expect(error?.response?.body == Data("ok".utf8))
        }
    }

    @Test(arguments: [0, 99, 1000, -1, Int.max])
    func aTransportOfTheAppsOwnCannotHandOnAnotherStatusCode(_ code: Int) async {
        let client = HTTPClient(transport: ScriptedTransport { _ in (code, ["Content-Length": "2"], "ok") })
        let error = await responseError {
            _ = try await client.perform(
                Request(URL: URL(string: "https://api.example.com/status") ?? URL(fileURLWithPath: "/"), method: .get))
        }
        guard case .malformedResponse(_, let reason)? = error else {
            Issue.record("\(code): expected malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("status code \(code)"), "\(reason)")
    }
}
#endif
