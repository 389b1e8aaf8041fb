#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation
import GirdersLog
import Testing

@testable import GirdersNetworking
import GirdersTestServers

/// libcurl is loaded at run time (no headers at build time): each way the load can fail says what is wrong and
/// what to install, and without libcurl `HTTPClient()` falls back to URLSessionTransport with one warning.
struct CurlLoaderTests {
    func open(_ library: String, minimum: UInt32 = UInt32(GIRDERS_CURL_MINIMUM_VERSION)) -> (Int32, String) {
        var api = girders_curl_api()
        var error = [CChar](repeating: 0, count: 512)
        let status = girders_curl_open(library, minimum, &api, &error, error.count)
        return (status, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test func thisMachinesLibcurlLoadsAndIsNewEnough() {
        #expect(open("libcurl.so.4").0 == 0)
        #expect(CurlTransport.libraryFailure == nil)
    }

    @Test func aLibraryThatIsNotThereIsNamedWithThePackageToInstall() {
        let (status, error) = open("libcurl-girders-missing.so.9")
        #expect(status == -1)
        #expect(error.hasPrefix("cannot load libcurl-girders-missing.so.9 ("))
        #expect(error.hasSuffix("install libcurl4 (Debian, Ubuntu) or libcurl (Fedora)"))
    }

    @Test func aLibraryWithoutLibcurlsFunctionsNamesTheFirstOneMissing() {
        let (status, error) = open("libz.so.1")
        #expect(status == -1)
        #expect(
            error.hasPrefix("libz.so.1 has no curl_global_init: it is not libcurl 7.77.0 or later; install libcurl4"))
    }

    @Test func aLibcurlOlderThanTheMinimumIsRefusedWithBothVersions() {
        let (status, error) = open("libcurl.so.4", minimum: 0x7F_0000)
        #expect(status == -1)
        #expect(error.hasPrefix("libcurl.so.4 is libcurl "))
        #expect(error.contains("; Girders needs 127.0.0 or later: install libcurl4"))
    }

    @Test func withoutLibcurlTheDefaultTransportFallsBackAndSaysWhyOnce() {
        let recorder = LogRecorder()
        let logger = Logger(label: "girders", destination: recorder, level: .verbose)
        #expect(!HTTPClient.usesFallback(curlFailure: nil, logger: logger))
        #expect(recorder.records.isEmpty)
        #expect(HTTPClient.usesFallback(curlFailure: "cannot load libcurl.so.4 (not found)", logger: logger))
        #expect(
            recorder.records(at: .warning).map(\.message.redactedText) == [
                "HTTPClient uses URLSessionTransport: cannot load libcurl.so.4 (not found)"
            ])
        #expect(HTTPClient.defaultTransport() is CurlTransport)  // this machine has libcurl
    }
}
#endif
