#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import Testing

@testable import GirdersNetworking
import GirdersTestServers

/// Downloads that survive being cut off: Range and If-Range against an origin the tests set up, and a file that is
/// always exactly one version of the server's bytes.
struct ResumableDownloadTests {
    let origin: CacheOrigin
    let name = "f" + UUID().uuidString.prefix(8).lowercased()

    init() throws {
        origin = try CacheOrigin.get()
    }

    /// The bytes of the file now, fetched whole in memory.
    func serverBytes(_ client: HTTPClient) async throws -> Data {
        try await client.perform(Request(URL: origin.fileURL(name, "?whole"), method: .get)).body
    }

    func destination() throws -> URL {
        try temporaryFolder().appendingPathComponent("download.bin")
    }

    @Test(arguments: TransportKind.allCases)
    func aDownloadCutOffGoesOnFromWhereItStoppedWithRangeAndIfRange(_ kind: TransportKind) async throws {
        let client = kind.client()
        let target = try destination()
        try await origin.file(name, .init(size: 300_000, cuts: [100_000]))
        let cut = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        #expect(cut?.kind == .interrupted, "\(String(describing: cut))")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        let kept = try #require(ResumeData.bytesKept(for: target))
        #expect(kept > 0 && kept <= 100_000)
        let done = try await client.download(
            Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        #expect(done.statusCode == 206)
        #expect(done.fileURL == target)
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
        let asked = try await origin.log(name)
        #expect(asked[1].headers["range"] == "bytes=\(kept)-")
        #expect(asked[1].headers["if-range"] == #""v1""#)
        #expect(ResumeData.bytesKept(for: target) == nil)
        #expect(try fileNames(in: target.deletingLastPathComponent()) == ["download.bin"])
    }

    @Test func aFileFirstSentWithoutALengthResumesToTheLengthItsContentRangeSays() async throws {
        let client = makeClient()
        let target = try destination()
        try await origin.file(name, .init(size: 300_000, cuts: [100_000], chunked: true))
        _ = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        #expect((ResumeData.bytesKept(for: target) ?? 0) > 0)
        try await origin.file(name, .init(size: 300_000))
        let done = try await client.download(
            Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        #expect(done.statusCode == 206)
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
    }

    @Test func aResourceThatChangedMeanwhileIsFetchedWholeNeverMixed() async throws {
        let client = makeClient()
        let target = try destination()
        try await origin.file(name, .init(size: 200_000, cuts: [50_000]))
        _ = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        try await origin.file(name, .init(size: 200_000, version: "v2"))
        let done = try await client.download(
            Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        #expect(done.statusCode == 200)  // If-Range did not match: the whole new version
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
    }

    @Test func aServerThatIgnoresIfRangeIsCaughtByItsEntityTag() async throws {
        let client = makeClient()
        let target = try destination()
        try await origin.file(name, .init(size: 200_000, cuts: [50_000]))
        _ = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        try await origin.file(name, .init(size: 200_000, version: "v2", ignore_if_range: true))
        _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
        let asked = try await origin.log(name)
        #expect(asked[1].headers["range"] != nil)
        #expect(asked[2].headers["range"] == nil)  // the 206 of another version was refused: fetched whole
    }

    @Test func aPartialResponseForAnotherRangeIsRefused() async throws {
        let client = makeClient()
        let target = try destination()
        try await origin.file(name, .init(size: 200_000, cuts: [50_000]))
        _ = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        try await origin.file(name, .init(size: 200_000, shift: 10))
        _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
        #expect(try await origin.log(name)[2].headers["range"] == nil)
    }

    @Test func keptBytesPastTheEndOfAShorterResourceStartOver() async throws {
        let client = makeClient()
        let target = try destination()
        try await origin.file(name, .init(size: 200_000, cuts: [150_000]))
        _ = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        try await origin.file(name, .init(size: 1_000))  // same version, now shorter: 416
        _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
    }

    @Test func aResponseWithoutAStrongValidatorLeavesNothingBehind() async throws {
        let client = makeClient()
        let target = try destination()
        try await origin.file(name, .init(size: 200_000, cuts: [50_000], no_validator: true))
        _ = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        #expect(ResumeData.bytesKept(for: target) == nil)
        #expect(try fileNames(in: target.deletingLastPathComponent()).isEmpty)
    }

    @Test func aLastModifiedADayBeforeDateIsAValidatorToo() async throws {
        let client = makeClient()
        let target = try destination()
        try await origin.file(name, .init(size: 200_000, cuts: [50_000], date_only: true))
        _ = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        #expect(
            try await client.download(
                Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true
            ).statusCode == 206)
        #expect(try await origin.log(name)[1].headers["if-range"] == "Tue, 01 Dec 2026 10:00:00 GMT")
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
    }

    @Test func aCancelIsAPauseAndARefreshedURLResumesWhenTheValidatorMatches() async throws {
        let client = makeClient()
        let target = try destination()
        try await origin.file(name, .init(size: 400_000, hold_after: 100_000))
        let started = LockedList<Int64>()
        let task = Task {
            try await client.download(
                Request(URL: origin.fileURL(name, "?signature=old"), method: .get), to: target, resumable: true
            ) { started.append($0.completedBytes) }
        }
        try await waitUntil { (started.values.last ?? 0) >= 100_000 }
        task.cancel()
        let error = await responseError { _ = try await task.value }
        #expect(error?.isCancellation == true)
        let kept = try #require(ResumeData.bytesKept(for: target))
        #expect(kept == 100_000)
        try await origin.file(name, .init(size: 400_000))
        let done = try await client.download(
            Request(URL: origin.fileURL(name, "?signature=new"), method: .get), to: target, resumable: true)
        #expect(done.statusCode == 206)
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
    }

    @Test func theDownloadLimitBoundsTheWholeFileAndKeepsNothing() async throws {
        let client = HTTPClient(
            transport: TransportKind.underTest.transport(), responseLimits: ResponseLimits(downloadBytes: 100_000))
        let target = try destination()
        try await origin.file(name, .init(size: 300_000))
        let error = await responseError {
            _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        }
        #expect(error?.kind == .limitExceeded, "\(String(describing: error))")
        #expect(try fileNames(in: target.deletingLastPathComponent()).isEmpty)
    }

    @Test func aDownloadKilledWithItsProcessGoesOnInTheNextOne() async throws {
        let target = try destination()
        // The origin sends 200,000 bytes and then holds the rest back: the probe cannot finish before it is killed.
        try await origin.file(name, .init(size: 600_000, hold_after: 200_000))
        let process = ChildProcess()
        process.executableURL = testExecutable("TransferProbe")
        process.arguments = ["resumable-download", origin.fileURL(name).absoluteString, target.path]
        try process.run()
        try await waitUntil { ResumeData.bytesKept(for: target) == 200_000 }
        kill(process.processIdentifier, SIGKILL)
        await process.exited()
        let kept = try #require(ResumeData.bytesKept(for: target))
        #expect(kept == 200_000)
        try await origin.file(name, .init(size: 600_000))
        let client = makeClient()
        let done = try await client.download(
            Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        #expect(done.statusCode == 206)
        #expect(try await origin.log(name)[1].headers["range"] == "bytes=\(kept)-")
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
    }

    @Test func aDownloadKilledAtRandomMomentsAgainAndAgainEndsAsTheServersBytes() async throws {
        let target = try destination()
        try await origin.file(name, .init(size: 2_000_000, drip_ms: 2))
        for _ in 0..<6 {
            let process = ChildProcess()
            process.executableURL = testExecutable("TransferProbe")
            process.arguments = ["resumable-download", origin.fileURL(name).absoluteString, target.path]
            try process.run()
            // The moment of the kill is random (the invariant must hold at any of them).
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...200)))
            kill(process.processIdentifier, SIGKILL)
            await process.exited()
            if FileManager.default.fileExists(atPath: target.path) { break }  // it finished first
        }
        let client = makeClient()
        _ = try await client.download(Request(URL: origin.fileURL(name), method: .get), to: target, resumable: true)
        #expect(try Data(contentsOf: target) == (try await serverBytes(client)))
        let ranges = try await origin.log(name).compactMap { $0.headers["range"] }
        #expect(ranges.allSatisfy { $0.hasPrefix("bytes=") })
    }

    @Test func contentRangeIsReadStrictly() throws {
        let range = try #require(ResumeData.contentRange("bytes 10-99/100"))
        #expect(range == (10, 99, 100))
        for bad in [
            "bytes 10-99/*", "bytes 10-100/100", "bytes 99-10/100", "items 0-1/2", "bytes -1-5/9", "bytes 1-2/3/4",
            "bytes 0-99999999999999999999/1", nil,
        ] {
            #expect(ResumeData.contentRange(bad) == nil, "\(String(describing: bad))")
        }
    }
}
#endif
