#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// A body whose content coding does not end cleanly is an error naming the coding, never a success. libcurl 7.88
/// took half a gzip stream (whose `Content-Length` was met), a gzip stream without its CRC-32 and size and a brotli
/// stream without its last meta-block for whole bodies; CurlTransport now decodes them itself and checks each
/// coding's end.
struct ContentCodingTests {
    let server: HostileServer

    init() throws {
        server = try HostileServer.get()
    }

    /// What `/coded` encodes: the hostile server's `codings.PLAIN`.
    static let plain: Data = {
        var text = ""
        for index in 0..<1_800 {
            text +=
                "line \(String(format: "%06d", index)): the quick brown fox jumps over the lazy dog \(index * 7919 % 1000)\n"
        }
        return Data(text.utf8.prefix(108_000))
    }()

    func coded(_ coding: String, _ damage: String = "none") -> Request {
        Request(URL: server.url("/coded?coding=\(coding)&damage=\(damage)"), method: .get)
    }

    #if os(Linux)
    @Test(arguments: ["gzip", "deflate", "raw-deflate", "br", "zstd", "gzip-gzip"])
    func aWholeBodyInEveryCodingDecodesToWhatTheServerEncoded(_ coding: String) async throws {
        let response = try await TransportKind.curl.client().perform(coded(coding))
        #expect(response.body == Self.plain)
        #expect(response.headers["Content-Encoding"] != nil)
    }

    @Test(arguments: ["gzip", "deflate", "raw-deflate", "br", "zstd", "gzip-gzip"], ["half", "tail"])
    func aCodingCutShortIsAnInterruptionNamingTheCoding(_ coding: String, _ damage: String) async throws {
        let error = await responseError { _ = try await TransportKind.curl.client().perform(coded(coding, damage)) }
        let name = coding == "raw-deflate" ? "deflate" : coding == "gzip-gzip" ? "gzip" : coding
        #expect(error?.kind == .interrupted, "\(String(describing: error))")
        #expect(error?.description.contains("\(name) coding") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["gzip", "deflate", "br", "zstd"])
    func bytesAfterTheEndOfACodingAreAMalformedResponse(_ coding: String) async throws {
        let error = await responseError { _ = try await TransportKind.curl.client().perform(coded(coding, "garbage")) }
        #expect(error?.kind == .malformedResponse, "\(String(describing: error))")
        #expect(error?.description.contains(coding) == true, "\(String(describing: error))")
    }

    @Test(arguments: ["gzip", "zstd"])
    func gzipMembersAndZstdFramesOneAfterAnotherAreOneBody(_ coding: String) async throws {
        let response = try await TransportKind.curl.client().perform(coded(coding, "members"))
        #expect(response.body == Self.plain + Self.plain)
    }

    /// A coding Girders does not know (`compress`, or one of an API's own) is delivered as it came, with its
    /// `Content-Encoding` kept so the app can see it was not decoded, as every browser does (the public cache-tests
    /// suite's `headers-store-Content-Encoding`); before, it failed the request.
    @Test func aCodingNobodyDecodesIsDeliveredAsItCameWithItsContentEncoding() async throws {
        let response = try await TransportKind.curl.client().perform(coded("compress"))
        #expect(response.statusCode == 200)
        #expect(response.body == Data([0x1F, 0x9D, 0x90] + Array("not really".utf8)))
        #expect(response.headers["Content-Encoding"] == "compress")
        let layered = try await TransportKind.curl.client().perform(coded("compress-over-gzip"))
        #expect(layered.headers["Content-Encoding"] == "gzip, compress", "nothing is undone when the last is unknown")
        #expect(layered.body.starts(with: [0x1F, 0x9D, 0x90]))
    }

    /// FoundationNetworking always asks libcurl to decode (`CURLOPT_ACCEPT_ENCODING`), and libcurl fails a coding it
    /// does not know, so URLSessionTransport on Linux cannot deliver such a body: a loud error, never a wrong body.
    /// Pinned, so a toolchain that changes it is noticed (HostileServers.md).
    @Test func foundationNetworkingFailsACodingItDoesNotKnow() async throws {
        let error = await responseError { _ = try await TransportKind.urlSession.client().perform(coded("compress")) }
        #expect(error?.description.contains("Unrecognized content encoding") == true, "\(String(describing: error))")
    }

    @Test func curlTransportOffersTheCodingsItDecodes() async throws {
        let loopback = try LoopbackServer.get()
        let echo: Response<Echo> = try await TransportKind.curl.client().executeRequest(
            request: Request(URL: loopback.url("/echo"), method: .get))
        #expect(echo.bodyObject?.headers["accept-encoding"] == ["gzip, deflate, br, zstd"])
    }

    /// FoundationNetworking decodes inside libcurl and hands over only decoded bytes, so URLSessionTransport cannot
    /// see that a coding was cut short: half a gzip stream is a `200` with part of the body. Pinned, so a toolchain
    /// that fixes it is noticed; CurlTransport, the default on Linux, refuses it (above). Documented in
    /// HostileServers.md and URLSessionTransport's doc comment.
    @Test func foundationNetworkingTakesAGzipStreamCutShortForAWholeBody() async throws {
        let response = try await TransportKind.urlSession.client().perform(coded("gzip", "half"))
        #expect(response.statusCode == 200)
        #expect(response.body.count < Self.plain.count)
        #expect(Self.plain.starts(with: response.body))
    }
    #endif
}
#endif
