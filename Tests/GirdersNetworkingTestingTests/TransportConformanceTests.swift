import Foundation
import GirdersNetworking
import GirdersNetworkingTesting
import Testing

/// Girders' own transports pass the conformance suite every transport written against the seam is held to.
struct TransportConformanceTests {
    #if os(Linux)
    @Test func curlTransportConforms() async {
        let failures = await TransportConformance { CurlTransport() }.run()
        #expect(failures.isEmpty, "\(failures)")
    }
    #endif

    @Test func urlSessionTransportConforms() async {
        // On Apple platforms URLSession switches only to WebSocket, by its own task; on Linux the connection is
        // libcurl's, which switches to anything.
        #if os(Linux)
        let switches = true
        #else
        let switches = false
        #endif
        let failures = await TransportConformance(switchesProtocols: switches) {
            URLSessionTransport(configuration: .default)
        }
        .run()
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func aTransportThatGetsThingsWrongFailsTheCasesItBreaks() async {
        // A stub answers everything with an empty 200: the cases that look at what arrived, or at failures, fail.
        // (The cancellation case would wait 30 s for a request that never reaches the server.)
        let failures = await TransportConformance { StubTransport(responses: [StubResponse()]) }.run(
            only: Set(TransportConformance.caseNames).subtracting(["cancelling the calling task stops the transfer"]))
        let names = Set(failures.map(\.name))
        #expect(names.contains("a GET arrives with its method, target and every field, repeated ones apart"))
        #expect(names.contains("a request slower than its timeout fails with timedOut"))
        #expect(names.contains("a refused connection is cannotConnect"))
        #expect(
            names.contains(
                "a request to switch protocols gets its 101 and the connection, read up to the server's close"))
        #expect(failures.count >= 10, "\(failures)")
    }
}

/// A transport written outside the module, on the public seam alone, sends every kind of body and passes the suite.
struct ExternalTransportConformanceTests {
    @Test func aTransportWrittenAgainstThePublicSeamConforms() async {
        let failures = await TransportConformance { SocketTransport() }.run()
        #expect(failures.isEmpty, "\(failures)")
    }
}
