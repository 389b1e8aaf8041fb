#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestServers
import Testing

/// Proxies come from the environment (`http_proxy`, `no_proxy`), as curl reads them. The variables are set for a
/// `TransferProbe` process of their own, since they would reach every other test in this one.
struct ProxyTests {
    struct Reply: Decodable {
        let status: Int
        let body: String
    }

    struct Proxied: Decodable {
        let method: String
        let target: String
    }

    /// Runs `TransferProbe get <url> <transport>` with `environment` added: its reply, or its error text.
    func probe(
        _ url: String, _ transport: String, environment: [String: String]
    ) async throws -> Result<Reply, ServerError> {
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
        variables.merge(environment) { $1 }
        let run = try await TransferProbeRun(["get", url, transport], environment: variables)
        guard run.status == 0 else { return .failure(ServerError(run.errors)) }
        return .success(try JSONDecoder().decode(Reply.self, from: run.output))
    }

    #if os(Linux)
    @Test(arguments: ["curl", "urlSession"])
    func aRequestGoesThroughTheProxyNamedByHttpProxyUnlessNoProxyNamesTheHost(_ transport: String) async throws {
        let (process, port, stdin) = try PythonServer.start("proxy_server")
        defer {
            try? stdin.close()
            process.waitUntilExit()
        }
        // The host does not exist: only a proxy can answer for it.
        let url = "http://girders-proxy-test.invalid/items?page=2"
        let proxy = ["http_proxy": "http://127.0.0.1:\(port)"]
        let reply = try await probe(url, transport, environment: proxy).get()
        #expect(reply.status == 200)
        let proxied = try JSONDecoder().decode(Proxied.self, from: Data(reply.body.utf8))
        #expect(proxied.method == "GET" && proxied.target == url)

        let bypassed = try await probe(
            url, transport, environment: proxy.merging(["no_proxy": "girders-proxy-test.invalid"]) { $1 })
        guard case .failure(let error) = bypassed else {
            Issue.record("no_proxy names the host, yet the request reached the proxy")
            return
        }
        #expect(error.description.contains("girders-proxy-test.invalid"), "\(error)")
    }
    #endif
}
#endif
