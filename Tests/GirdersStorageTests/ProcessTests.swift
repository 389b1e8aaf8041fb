#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import GirdersStorage
import Testing

/// Several processes on one store, and processes killed mid-write.
struct ProcessTests {
    static let keyHex = String(repeating: "5a", count: 32)

    func helper(_ folder: URL, prefix: String, count: Int) throws -> (ChildProcess, Pipe) {
        let process = ChildProcess()
        process.executableURL = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent(
            "StorageStress")
        process.arguments = [folder.path, Self.keyHex, prefix, String(count)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        return (process, output)
    }

    @Test func twoProcessesWritingDifferentKeysAtOnceLoseNothing() async throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        _ = try FileSecureStorage(folder: folder, key: .raw(Data(repeating: 0x5A, count: 32)))
        let first = try helper(folder, prefix: "a", count: 60)
        let second = try helper(folder, prefix: "b", count: 60)
        await first.0.exited()
        await second.0.exited()
        #expect(first.0.terminationStatus == 0 && second.0.terminationStatus == 0)
        let storage = try FileSecureStorage(folder: folder, key: .raw(Data(repeating: 0x5A, count: 32)))
        let keys = try storage.allKeys()
        #expect(keys.count == 120)
        #expect(try storage.readString(forKey: "a-59") == "value-a-59")
        #expect(try storage.readString(forKey: "b-0") == "value-b-0")
    }

    /// Two processes that open a store no one has created yet: one creates it, the other waits for the lock and
    /// opens what was made. Before, the second looked before taking the lock, saw `items-1` without a header (the
    /// first was halfway through) and refused the store as corrupted in about half the tries, its writes lost.
    @Test func twoProcessesCreatingOneNewStoreAtOnceBothOpenItAndBothWritesLand() async throws {
        let rounds = 40
        // 80 processes waited for: on a thread of their own, not on one of the few cooperative threads.
        let (failures, wrongKeys) = try await offThePool { [self] in try raceOnNewStores(rounds) }
        #expect(failures.isEmpty, "\(failures.count) of \(2 * rounds) processes failed: \(failures.prefix(3))")
        #expect(wrongKeys.isEmpty, "\(wrongKeys.prefix(3))")
    }

    /// Reads the helper's reports until `target` writes are reported (or it ends on its own), kills it, waits for
    /// it and returns everything it reported. Blocks: run it off the pool.
    private static func killAfter(_ target: Int, reportedBy process: ChildProcess, on reader: FileHandle) -> Data {
        var seen = Data()
        while seen.count(where: { $0 == UInt8(ascii: "\n") }) < target {
            let chunk = reader.availableData
            if chunk.isEmpty { break }  // the helper ended on its own: its status says why
            seen.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        seen.append(reader.readDataToEndOfFile())
        return seen
    }

    /// Runs `rounds` races of two processes on a new store: the failed processes and the rounds whose store does not
    /// hold both writes.
    private func raceOnNewStores(_ rounds: Int) throws -> ([String], [String]) {
        var failures: [String] = []
        var wrongKeys: [String] = []
        for round in 0..<rounds {
            let folder = try temporaryFolder().appendingPathComponent("store-\(round)")
            let first = try helper(folder, prefix: "a", count: 1)
            let second = try helper(folder, prefix: "b", count: 1)
            for (process, _) in [first, second] { process.waitUntilExit() }
            for (name, (process, _)) in [("a", first), ("b", second)] where process.terminationStatus != 0 {
                let message = (process.standardError as? Pipe).map {
                    String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                }
                failures.append("round \(round), \(name): \(message ?? "")")
            }
            let storage = try FileSecureStorage(folder: folder, key: .raw(Data(repeating: 0x5A, count: 32)))
            let keys = try storage.allKeys().sorted()
            if keys != ["a-0", "b-0"] { wrongKeys.append("round \(round): \(keys)") }
        }
        return (failures, wrongKeys)
    }

    /// The kill lands at a moment chosen by the helper's own progress, not by a clock: each round waits until the
    /// helper has reported a random number of durable writes (it goes straight on with the next), then kills it.
    /// Before, a random sleep chose the moment, and a slow start (ThreadSanitizer) left every round without a write.
    @Test func aProcessKilledAtRandomMomentsNeverLosesACompletedWrite() async throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let key = StorageKey.raw(Data(repeating: 0x5A, count: 32))
        _ = try FileSecureStorage(folder: folder, key: key)
        for round in 0..<20 {
            let (process, output) = try helper(folder, prefix: "r\(round)", count: 100_000)
            let target = Int.random(in: 1...40)
            let seen = await offThePool { Self.killAfter(target, reportedBy: process, on: output.fileHandleForReading) }
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the helper ended before the kill")
            let reported = String(decoding: seen, as: UTF8.self)
                .split(separator: "\n").compactMap { $0.hasPrefix("done ") ? Int($0.dropFirst(5)) : nil }
            #expect(reported.count >= target, "round \(round): \(reported.count) writes reported, \(target) awaited")
            let storage = try FileSecureStorage(folder: folder, key: key)
            for index in reported {
                #expect(
                    try storage.readString(forKey: "r\(round)-\(index)") == "value-r\(round)-\(index)",
                    "round \(round), write \(index)")
            }
            #expect(try storage.allKeys().filter { $0.hasPrefix("r\(round)-") }.count >= reported.count)
            let leftovers = try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("items-1").path
            )
            .filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty, "temporary files left after opening: \(leftovers)")
        }
    }
}
#endif
