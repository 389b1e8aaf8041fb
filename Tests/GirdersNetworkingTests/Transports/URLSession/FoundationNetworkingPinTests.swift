#if os(Linux)
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// What FoundationNetworking (URLSessionTransport on Linux) does with hostile responses that Girders cannot fix,
/// pinned so that a toolchain that fixes one is noticed (the test then fails and Documentation/HostileServers.md
/// is updated), each beside what CurlTransport, the default on Linux, does with the same response.
struct FoundationNetworkingPinTests {
    let server: HostileServer

    init() throws {
        server = try HostileServer.get()
    }

    /// One valid HTTP trailer field kills the process ("Transfer completed, but there's no response"), so it is run
    /// in a child process.
    @Test func aTrailerFieldKillsTheProcessOnURLSessionAndIsReadOnCurl() async throws {
        let url = server.url("/trailer?size=16").absoluteString
        let environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let foundation = try await TransferProbeRun(["get", url, "urlSession"], environment: environment)
        #expect(foundation.reason == .uncaughtSignal, "exit \(foundation.status): \(foundation.errors)")
        #expect(foundation.errors.contains("Transfer completed, but there's no response"), "\(foundation.errors)")
        let curl = try await TransferProbeRun(["get", url, "curl"])
        #expect(curl.reason == .exit && curl.status == 0, "\(curl.errors)")
        #expect(String(decoding: curl.output, as: UTF8.self).contains(#""body":"hello""#))
    }

    /// libcurl keeps at most 4 KB of trailer fields: past that CurlTransport says so (libcurl said "Out of memory").
    @Test func trailerFieldsPastLibcurlsFourKilobytesAreAMalformedResponseOnCurl() async throws {
        let error = await responseError {
            _ = try await TransportKind.curl.client().perform(
                Request(URL: server.url("/trailer?size=8000"), method: .get))
        }
        #expect(error?.kind == .malformedResponse, "\(String(describing: error))")
        #expect(error?.description.contains("trailer fields") == true, "\(String(describing: error))")
    }

    /// Interim `1xx` heads count against `ResponseLimits.headerBytes` on both transports (FoundationNetworking hands
    /// each head to the delegate, and the sink adds them up; CurlTransport counts their lines as they arrive).
    @Test(arguments: TransportKind.allCases)
    func interimHeadsCountAgainstTheHeadLimits(_ kind: TransportKind) async throws {
        let limits = ResponseLimits(headerBytes: 16 << 10)
        let request = Request(
            MutableRequest(url: server.url("/interim?n=3&size=10000")) |> withResponseLimits(limits))
        let error = await responseError { _ = try await kind.client().perform(request) }
        #expect(error?.exceededLimit?.limit == .headerBytes, "\(String(describing: error))")
        let small = Request(MutableRequest(url: server.url("/interim?n=3&size=100")) |> withResponseLimits(limits))
        #expect(try await kind.client().perform(small).body == Data("ok".utf8))
    }

    /// A decompression bomb reaches URLSessionTransport decoded: it stops at `ResponseLimits.bodyBytes`, but
    /// FoundationNetworking has decoded and queued most of the 256 MiB by then; CurlTransport decodes as it takes
    /// and holds the limit and a few MiB (ResponseLimitTests).
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["GIRDERS_SANITIZER"] == nil,
            "a sanitizer's shadow memory is in the peak (GIRDERS_SANITIZER is set)"))
    func aDecompressionBombRaisesURLSessionsPeakMemoryFarPastTheLimit() async throws {
        let run = try await TransferProbeRun(["limit", server.url("/bomb?layers=2").absoluteString, "urlSession"])
        let report = try run.memoryReport()
        #expect(report.error.contains("ResponseLimits.bodyBytes"), "\(report.error)")
        // 283 MiB above the baseline when this was written; the limit is 32.
        #expect(report.grewKB > 128 << 10, "grew \(report.grewKB) KiB")
    }

    /// A header line over libcurl's 100 KB is a malformed response naming that, on both transports (libcurl said
    /// "Out of memory").
    @Test(arguments: TransportKind.allCases)
    func aHeaderLineLongerThanLibcurlAcceptsIsAMalformedResponse(_ kind: TransportKind) async throws {
        let error = await responseError {
            _ = try await kind.client().perform(Request(URL: server.url("/interim?n=1&size=300000"), method: .get))
        }
        #expect(error?.kind == .malformedResponse, "\(String(describing: error))")
        #expect(error?.description.contains("100 KB per line") == true, "\(String(describing: error))")
    }
}
#endif
