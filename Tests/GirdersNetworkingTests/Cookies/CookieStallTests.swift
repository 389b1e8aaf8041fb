#if os(Linux)  // HTTPCookieStorage.shared writes a file per cookie only with FoundationNetworking
import Foundation
import GirdersTestServers
import Testing

/// Storing a response's cookies never holds up other requests on the same transport: a fresh process (the
/// `TransferProbe` helper) receives 100 persistent cookies into `HTTPCookieStorage.shared`, which on Linux rewrites
/// its file for each one (seconds in all), while five other requests run; all five end before the cookies are
/// stored. CurlTransport stored them on its engine thread, so the others waited behind every file write.
struct CookieStallTests {
    let server: HostileServer

    init() throws {
        server = try HostileServer.get()
    }

    @Test(arguments: ["curl", "urlSession"])
    func otherRequestsEndWhileAResponsesCookiesAreStored(_ transport: String) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = home.path
        let run = try await TransferProbeRun(
            [
                "cookies", server.url("/cookies?n=100").absoluteString, server.url("/fields?n=1").absoluteString,
                transport,
            ], environment: environment)
        struct Report: Decodable {
            let othersEndedFirst: Bool
            let stored: Int
        }
        let report = try JSONDecoder().decode(Report.self, from: run.output)
        #expect(report.stored == 100, "\(run.errors)")
        #expect(report.othersEndedFirst)
    }
}
#endif
