#if canImport(CGirdersOpenSSL)
import CGirdersOpenSSL
import Foundation
import GirdersTestProcesses
import Testing

/// OpenSSL's libcrypto is loaded at run time (no headers at build time): each way the load can fail says what is
/// wrong and what to install, and a store refuses to open, creating nothing, when libcrypto is not there.
struct CryptoLoaderTests {
    func open(_ library: String, minimum: UInt = GIRDERS_OPENSSL_MINIMUM_VERSION) -> (Int32, String) {
        var api = girders_crypto_api()
        var error = [CChar](repeating: 0, count: 512)
        let status = girders_crypto_open(library, minimum, &api, &error, error.count)
        return (status, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test func thisMachinesLibcryptoLoads() {
        #expect(open("libcrypto.so.3").0 == 0)
        #expect(girders_crypto_load() == nil)
    }

    @Test func eachFailureNamesTheLibraryAndWhatIsWrong() {
        let missing = open("libcrypto-girders-missing.so.9")
        #expect(missing.0 == -1)
        #expect(missing.1.hasPrefix("cannot load libcrypto-girders-missing.so.9 ("))
        #expect(missing.1.hasSuffix("install libssl3 (Debian, Ubuntu) or openssl-libs (Fedora)"))
        let other = open("libz.so.1")
        #expect(other.1.hasPrefix("libz.so.1 has no EVP_CIPHER_CTX_new: it is not OpenSSL 3's libcrypto"))
        let old = open("libcrypto.so.3", minimum: 0xF000_0000)
        #expect(old.0 == -1)
        #expect(old.1.hasPrefix("libcrypto.so.3 is OpenSSL 3."))
        #expect(old.1.contains("; Girders needs 15.0 or later: install libssl3"))
    }

    /// A process whose `libcrypto.so.3` is another library (found first through `LD_LIBRARY_PATH`).
    @Test func withoutLibcryptoAStoreIsUnavailableAndNothingIsCreated() async throws {
        // zlib, which libcurl (and so FoundationNetworking) loads into this process; /proc reports a size of 0,
        // so the file is read to its end rather than by its size.
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile()
        let libz = try #require(
            String(decoding: maps, as: UTF8.self).split(separator: "\n")
                .compactMap { $0.split(separator: " ").last.map(String.init) }.first { $0.contains("/libz.so.1") })
        let libraries = try temporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: libraries.appendingPathComponent("libcrypto.so.3").path, withDestinationPath: libz)
        let folder = libraries.appendingPathComponent("store")
        let process = ChildProcess()
        process.executableURL = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent(
            "StorageStress")
        process.arguments = [folder.path, String(repeating: "5a", count: 32), "p", "1"]
        process.environment = ["LD_LIBRARY_PATH": libraries.path]
        let run = try await process.runToEnd()
        let message = run.errorText
        #expect(run.status == 1)
        #expect(message.contains("unavailable"))
        #expect(message.contains("libcrypto.so.3 has no EVP_CIPHER_CTX_new"))
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
#endif
