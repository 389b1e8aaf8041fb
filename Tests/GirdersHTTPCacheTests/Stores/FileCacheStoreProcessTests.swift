#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import Testing

@testable import GirdersNetworking
@testable import GirdersHTTPCache
import GirdersTestServers

/// FileCacheStore against processes killed mid-write and two processes writing at once (`TransferProbe
/// cache-writer`): every entry left is whole, its body the one its generation wrote.
struct FileCacheStoreProcessTests {
    /// Starts a writer of `generations` entries on `folder`.
    func startWriter(_ folder: URL, seed: Int, generations: Int = 1_000) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = testExecutable("TransferProbe")
        process.arguments = ["cache-writer", folder.path, String(seed), String(generations)]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Every entry file in `folder` decodes, and each body is what its generation wrote.
    func checkEveryEntry(in folder: URL) throws -> Int {
        let files = CacheFiles.entries(in: folder.path, abandonedAfter: 0)  // a killed writer's temporaries go too
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file.path)))
            guard case .success(let (key, response)) = CacheEntryFile.decode(bytes) else {
                Issue.record("a torn entry: \(file.path)")
                continue
            }
            let generation = Int(response.headers["X-Generation"] ?? "") ?? -1
            let length = Int(response.headers["X-Length"] ?? "") ?? -1
            #expect(response.body == CacheWriterBody.body(url: key.url, generation: generation, length: length))
        }
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
        return files.count
    }

    @Test func aWriterKilledAtRandomMomentsLeavesEveryEntryWholeOrAbsent() async throws {
        let folder = try temporaryFolder()
        for round in 0..<12 {
            let writer = try startWriter(folder, seed: round + 1)
            try await waitUntil { !CacheFiles.entries(in: folder.path, abandonedAfter: 3_600).isEmpty }
            // The moment of the kill is random: the invariant must hold at any of them.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...120)))
            kill(writer.processIdentifier, SIGKILL)
            await writer.exited()  // blocking waits stay off Swift's few threads
            #expect(writer.terminationReason == .uncaughtSignal)
        }
        #expect(try checkEveryEntry(in: folder) > 0)
        let store = try FileCacheStore(folder: folder, maximumBytes: 4 << 20, maximumEntries: 30)
        #expect(store.count <= 30)
    }

    @Test func twoProcessesWritingTheSameEntriesAtOnceLeaveThemWhole() async throws {
        let folder = try temporaryFolder()
        let writers = try [101, 202].map { try startWriter(folder, seed: $0, generations: 200) }
        // Until both have written their 200 entries over each other's (each then says so, and sleeps).
        try await waitUntil {
            [101, 202].allSatisfy { FileManager.default.fileExists(atPath: folder.path + ".done-\($0)") }
        }
        for writer in writers {
            kill(writer.processIdentifier, SIGKILL)
            await writer.exited()
        }
        #expect(try checkEveryEntry(in: folder) >= 20)
        // The bounds hold once either process scans again (each rescans every 64 writes).
        let bytes = CacheFiles.entries(in: folder.path, abandonedAfter: 3_600).reduce(0) { $0 + $1.size }
        #expect(bytes <= 2 * (4 << 20))
    }
}

/// The bodies `TransferProbe cache-writer` stores (CacheWriterProbe.body: the probe is an executable, so the rule
/// is repeated here).
enum CacheWriterBody {
    static func body(url: String, generation: Int, length: Int) -> Data {
        let pattern = Array("\(url)#\(generation);".utf8)
        guard length > 0 else { return Data() }
        return Data((0..<length).map { pattern[$0 % pattern.count] })
    }
}
#endif
